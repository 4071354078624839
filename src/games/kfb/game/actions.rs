//! The players' and moderators' actions: a draft pick, a move or drop, a give, a claim, a chat
//! that restarts a lock, a resignation and a proxy move. Each is checked here and then written
//! to the log through `commit`, so a refusal changes nothing.

use super::*;

impl Game {
    /// A draft pick (`for_player` for a replacement after a hand-over). A choice that breaks
    /// a constraint of KFB rules 1.8 is logged as a hand-over and comes back as
    /// [`PickOutcome::HandedOver`]: a refusal for the player, news for the other team.
    ///
    /// # Errors
    /// A plain refusal (malformed, out of turn, already picked, an impossible replacement).
    pub fn pick(
        &mut self,
        seat: usize,
        for_player: Option<usize>,
        choice: Choice,
        now: Timestamp,
        command: &str,
    ) -> Result<PickOutcome, Refusal> {
        if self.state.boards.is_some() {
            return refuse("the draft is over; the game has started");
        }
        let outcome = self
            .state
            .draft
            .pick(seat, for_player, choice)
            .map_err(|e| Refusal::Rule(self.humanize(&e.to_string())))?;
        let actor = self.users[seat].clone();
        let number = self.commit(&actor, now, command, Action::Pick(outcome.clone()))?;
        match &outcome {
            DraftOutcome::Picked { player, choice, .. } => {
                let mut text = format!(
                    "{} picks {} {} {}",
                    self.users[*player],
                    choice.order.as_str(),
                    choice.colour.as_str(),
                    choice.army.as_str()
                );
                if self.state.boards.is_some() {
                    text.push_str(". The draft is complete; the game starts.\n");
                    text.push_str(&self.seating_text());
                } else {
                    let t = self.draft_turn_team();
                    text.push_str(&format!(". {} to pick.", team_name(t)));
                }
                Ok(PickOutcome::Picked(Accepted {
                    number,
                    text,
                    notify: self.turn_notify(),
                }))
            }
            DraftOutcome::HandedOver {
                player,
                refused,
                reason,
            } => {
                let number = number.unwrap_or(0);
                let who = &self.users[*player];
                let (own, other) = (team_of(*player), 1 - team_of(*player));
                let reason = self.humanize(reason);
                let how = format!("/pick for:@{who} order:… color:… army:…");
                let replacing: Vec<String> = self.users[other * 3..other * 3 + 3].to_vec();
                let refusal = format!(
                    "{who}'s choice {refused} is refused: {reason}. The choice is handed over \
                     (#{number}): {} picks the replacement for {who} with {how}.",
                    team_name(other)
                );
                let last = self.state.draft.picks().iter().flatten().count() == 5;
                let then = if last {
                    "it completes the draft".to_string()
                } else {
                    format!(
                        "it counts as {}'s pick, and then it is {}'s turn",
                        team_name(own),
                        team_name(other)
                    )
                };
                let notice = format!("#{number} {who}'s choice {refused} is refused: {reason}.");
                let ask = format!(
                    "{}, pick the replacement for {who} with {how} (any of you may; {then}).",
                    team_name(other),
                );
                Ok(PickOutcome::HandedOver(HandOver {
                    number,
                    refusal,
                    notice,
                    ask,
                    replacing,
                }))
            }
        }
    }

    /// A move or drop.
    ///
    /// # Errors
    /// Locked, frozen, out of turn, or not a legal move (with what would work).
    pub fn play(
        &mut self,
        actor: &str,
        seat: usize,
        text: &str,
        army: Option<&str>,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        self.check_may_move(seat, now)?;
        let army_id = match army {
            Some(a) => Some(self.state.catalog.army_by_code(a).ok_or_else(|| {
                Refusal::Rule(format!(
                    "unknown army `{a}` (fide, clobberers, nutty, rookies, forward)"
                ))
            })?),
            None => None,
        };
        let boards = self
            .state
            .boards
            .as_ref()
            .ok_or_else(|| Refusal::Rule("not started".into()))?;
        let p = &self.state.players[seat];
        let b = &boards[p.board];
        let mut pos = b.pos.clone();
        pos.set_turn(p.side);
        let parsed = notation::parse_text(text)?;
        let all = pos.legal_moves();
        let allowed = allowed_moves(&mut pos, b, p.side);
        if all.is_empty() {
            let frozen = pos.royal_count(Side(0)) == 0 || pos.royal_count(Side(1)) == 0;
            if frozen {
                return refuse(format!(
                    "board {} is frozen: a side has no king there; only the kingless player may drop a king of their own colour",
                    p.board + 1
                ));
            }
            return refuse("you have no legal move");
        }
        let mv = match notation::resolve_in(&pos, text, &parsed, &allowed, army_id) {
            Ok(m) => m,
            Err(e) => {
                // Say so when the move would be legal but for the same-piece rule.
                if let Ok(m) = notation::resolve_in(&pos, text, &parsed, &all, army_id) {
                    return refuse(format!(
                        "{} moved since your opponent's last move; no piece moves twice before the opponent answers",
                        notation::format(&pos, m)
                    ));
                }
                return Err(e.into());
            }
        };
        let formatted = notation::format_with_check(&mut pos, mv);
        // The reply names the army of a pawn dropped from a hand of several armies, as the
        // move was offered (`P@g6(nutty)`); the log keeps the army apart.
        let shown = match mv {
            Move::Drop { piece, to } if self.state.catalog.def(piece.kind).pawn => {
                let several = allowed.iter().any(|m| {
                    matches!(m, Move::Drop { piece: q, to: t }
                        if *t == to && q.kind == piece.kind && q.army != piece.army)
                });
                if several {
                    let check = if formatted.ends_with('+') { "+" } else { "" };
                    format!("{}{check}", notation::format_with_army(&pos, mv))
                } else {
                    formatted.clone()
                }
            }
            _ => formatted.clone(),
        };
        let army_code = match mv {
            Move::Drop { piece, .. } if self.state.catalog.def(piece.kind).pawn => {
                Some(self.state.catalog.army(piece.army).code.to_string())
            }
            _ => None,
        };
        let action = Action::Move {
            player: seat,
            notation: formatted,
            army: army_code,
        };
        let board_no = p.board + 1;
        let opp = opponent(b, seat);
        let before_kings = self.kings_summary();
        let needs_before = self.king_needs();
        let number = self.commit(actor, now, command, action)?;
        let mut text = format!("{} on board {board_no}: {shown}", self.users[seat]);
        let after = self.kings_summary();
        if after != before_kings {
            text.push_str(&format!("\nkings: {after}"));
        }
        text.push_str(&self.winner_line());
        let mut notify = Notify::default();
        if !self.finished() && self.is_free(opp, now) {
            notify = Notify::to(
                [self.users[opp].clone()],
                format!("your move on {}", self.board_label(opp)),
            );
        }
        Ok(Accepted {
            number,
            text,
            notify: notify.and(self.new_king_needs(&needs_before)).nonempty(),
        })
    }

    /// Gives a held king to a teammate (§1.5).
    ///
    /// # Errors
    /// No such king held, not a teammate, or the game is over.
    pub fn give(
        &mut self,
        seat: usize,
        to_user: &str,
        colour: Option<&str>,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        self.check_playing()?;
        let Some(to) = self.seat_of(to_user) else {
            return refuse(format!("{to_user} is not seated in this game"));
        };
        if to == seat || team_of(to) != team_of(seat) {
            return refuse("kings are given to a teammate (another player of your team)");
        }
        let held: Vec<u8> = held_kings(&self.state, &self.state.catalog, seat);
        if held.is_empty() {
            return refuse("you hold no king to give");
        }
        let c = match colour {
            Some(name) => {
                let Some(c) = COLOUR_NAMES
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(name))
                else {
                    return refuse("colour must be red, lightgreen or blue");
                };
                let c = c as u8;
                if !held.contains(&c) {
                    return refuse(format!("you hold no {name} king"));
                }
                c
            }
            None => {
                let mut d = held.clone();
                d.sort_unstable();
                d.dedup();
                if d.len() > 1 {
                    let names: Vec<&str> = d.iter().map(|&c| COLOUR_NAMES[c as usize]).collect();
                    return refuse(format!(
                        "you hold kings of several colours ({}); say which with color:",
                        names.join(", ")
                    ));
                }
                d[0]
            }
        };
        let actor = self.users[seat].clone();
        let needs_before = self.king_needs();
        let number = self.commit(
            &actor,
            now,
            command,
            Action::Give {
                from: seat,
                to,
                colour: c,
            },
        )?;
        let mut text = format!(
            "{} gives the {} king to {}",
            self.users[seat], COLOUR_NAMES[c as usize], self.users[to]
        );
        text.push_str(&self.winner_line());
        Ok(Accepted {
            number,
            text,
            notify: self.new_king_needs(&needs_before).nonempty(),
        })
    }

    /// Claims inactivity against the board opponent (§1.7).
    ///
    /// # Errors
    /// The counter is below the limit, or there is no king to capture.
    pub fn claim(
        &mut self,
        seat: usize,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        self.check_playing()?;
        let Some(boards) = &self.state.boards else {
            return refuse("the game has not started yet");
        };
        let p = &self.state.players[seat];
        let b = &boards[p.board];
        let inactive = opponent(b, seat);
        let q = &self.state.players[inactive];
        if let Some(since) = self.away.paused_at(now) {
            return refuse(format!(
                "the game is paused since {}: no inactivity claim until a player moves or the organiser resumes it",
                crate::time::stamp(since, crate::time::Style::Full)
            ));
        }
        if let Some(back) = self.away.until(&q.user, now) {
            return refuse(format!(
                "{} is away on vacation until {}: no inactivity claim against them until then",
                q.user,
                crate::time::stamp(back, crate::time::Style::Full)
            ));
        }
        if q.counter < self.settings.inactivity_posts {
            return refuse(format!(
                "{} has {} of {} posts without moving; you may claim at {}",
                q.user, q.counter, self.settings.inactivity_posts, self.settings.inactivity_posts
            ));
        }
        if b.pos.royal_count(q.side) == 0 {
            return refuse(format!(
                "{} has no king on board {} to capture",
                q.user,
                p.board + 1
            ));
        }
        let actor = self.users[seat].clone();
        let needs_before = self.king_needs();
        let number = self.commit(
            &actor,
            now,
            command,
            Action::Claim {
                claimant: seat,
                inactive,
            },
        )?;
        let mut text = format!(
            "{} claims inactivity: {}'s king on board {} is captured",
            self.users[seat],
            self.users[inactive],
            self.state.players[seat].board + 1
        );
        text.push_str(&format!("\nkings: {}", self.kings_summary()));
        text.push_str(&self.winner_line());
        Ok(Accepted {
            number,
            text,
            notify: self.new_king_needs(&needs_before).nonempty(),
        })
    }

    /// A chat line by a seated player (a post for inactivity).
    pub fn chat(&mut self, seat: usize, now: Timestamp) {
        if self.state.boards.is_none() || self.finished() {
            return;
        }
        let actor = self.users[seat].clone();
        // Chat cannot fail to apply.
        let _ = self.commit(&actor, now, "", Action::Chat { player: seat });
    }

    /// Resigns for the player's team.
    ///
    /// # Errors
    /// The game is over or not started.
    pub fn resign(
        &mut self,
        seat: usize,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        self.check_playing()?;
        let actor = self.users[seat].clone();
        let number = self.commit(&actor, now, command, Action::Resign { player: seat })?;
        Ok(Accepted {
            number,
            text: format!(
                "{} resigns for {}; {} wins",
                self.users[seat],
                team_name(team_of(seat)),
                team_name(1 - team_of(seat))
            ),
            notify: None,
        })
    }

    /// Grants or revokes a proxy (organiser).
    ///
    /// # Errors
    /// Users not seated, or not teammates.
    pub fn proxy(
        &mut self,
        actor: &str,
        grant: bool,
        proxy_user: &str,
        for_user: &str,
        now: Timestamp,
        command: &str,
    ) -> Result<Accepted, Refusal> {
        let (Some(proxy), Some(for_player)) = (self.seat_of(proxy_user), self.seat_of(for_user))
        else {
            return refuse("both players must be seated in this game");
        };
        if proxy == for_player || team_of(proxy) != team_of(for_player) {
            return refuse("a proxy acts for a teammate");
        }
        let exists = self.state.proxies.contains(&(proxy, for_player));
        if grant == exists {
            return refuse(if grant {
                "that grant already exists"
            } else {
                "there is no such grant to revoke"
            });
        }
        let number = self.commit(
            actor,
            now,
            command,
            Action::Proxy {
                grant,
                proxy,
                for_player,
            },
        )?;
        Ok(Accepted {
            number,
            text: if grant {
                format!("{proxy_user} may now act for {for_user} (add board:<n> to /move)")
            } else {
                format!("{proxy_user} may no longer act for {for_user}")
            },
            // The proxy is to act for the player from now on.
            notify: (grant && !self.finished()).then(|| {
                let what = match &self.state.boards {
                    Some(_) => {
                        let board = self.state.players[for_player].board + 1;
                        format!("you may now act for {for_user} on board {board}: /move board:{board} …")
                    }
                    None => format!("you may act for {for_user} once the game starts"),
                };
                Notify::to([proxy_user.to_string()], what)
            }),
        })
    }
}
