//! The fold (Chex rules 5.1–5.8): how one action changes the state, with the lines that say
//! what happened; replaying the log applies it to every action in effect, in order.

use super::*;

/// The start position of a game: the empty board or the text, stacks shuffled from the seed.
fn start_position(settings: &Settings, text: Option<&str>) -> Result<Position, Refusal> {
    let mut pos = match text {
        Some(t) => Position::from_text(t)?,
        None => Position::start(),
    };
    pos.max_board = settings.max_board;
    let stacks = [pos.stacks[0].clone(), pos.stacks[1].clone()].map(|mut v| {
        v.sort();
        v
    });
    pos.stacks = shuffle_stacks(settings.seed, stacks);
    Ok(pos)
}

/// A turn begins at `time` after a piece came into play: its clock starts, and a stalemate
/// ends the game or offers a draw ([`check_stalemate`]).
fn turn_begins(
    st: &mut State,
    time: Timestamp,
    settings: &Settings,
    users: &[String],
    lines: &mut Vec<String>,
) {
    st.turn_started = time;
    check_stalemate(st, settings, users, lines);
}

/// Ends the game or offers a draw when the side to act is stalemated (§5.4).
fn check_stalemate(st: &mut State, settings: &Settings, users: &[String], lines: &mut Vec<String>) {
    if st.outcome.is_some() {
        return;
    }
    let side = st.pos.to_move;
    let reason = if st.pos.king_stalemate() {
        DrawReason::KingStalemate(side)
    } else if st.pos.move_stalemate() {
        DrawReason::MoveStalemate(side)
    } else if st.pos.revealed.is_some() && st.pos.placement_squares().is_empty() {
        DrawReason::NoSquare(side)
    } else {
        return;
    };
    let text = outcome_text(users, &Outcome::Draw(reason));
    match settings.stalemate {
        StalemateMode::Declare => {
            lines.push(format!("Stalemate declared: {text}."));
            st.outcome = Some(Outcome::Draw(reason));
        }
        StalemateMode::Offer => {
            st.draw_offer = Some(side);
            lines.push(format!(
                "Stalemate: {text}. The bot offers a draw in {}'s name: {} may /accept or /decline.",
                name(users, side),
                name(users, side.other())
            ));
        }
    }
}

/// After a board action: the opponent's standing offer lapses when its recipient plays on.
fn lapse_offer(st: &mut State, side: Side, users: &[String], lines: &mut Vec<String>) {
    if st.draw_offer == Some(side.other()) {
        st.draw_offer = None;
        lines.push(format!(
            "{}'s draw offer lapses: {} played on.",
            name(users, side.other()),
            name(users, side)
        ));
    }
}

pub(super) fn fold(
    st: &mut State,
    settings: &Settings,
    users: &[String],
    action: &Action,
    time: Timestamp,
    number: Option<u32>,
    lines: &mut Vec<String>,
) -> Result<(), Refusal> {
    let nm = |s: Side| name(users, s);
    // Only the log's own bookkeeping comes after the end (a substitution does not).
    if let (false, Some(o)) = (action.bookkeeping(), &st.outcome) {
        return refuse(format!("the game is over: {}", outcome_text(users, o)));
    }
    let was = st.pos.frame();
    match action {
        Action::Substitute(h) => {
            // The incoming player starts with a fresh limit (RULINGS §9).
            if st.pos.to_move.index() == h.seat {
                st.turn_started = time;
            }
            lines.push(format!("{}.", h.text()));
        }
        Action::Start { position } => {
            let pos = start_position(settings, position.as_deref())?;
            *st = State::new(pos, time);
            st.seeds.push(SeedInUse {
                seed: settings.seed,
                known: !settings.reshuffled,
                hash: settings.seed_hash.clone(),
                from: None,
            });
            lines.push(format!("Chex: {}, {}.", nm(Side::White), nm(Side::Black)));
            check_stalemate(st, settings, users, lines);
            return Ok(());
        }
        Action::Draw {
            side,
            piece,
            square,
        } => {
            if st.pos.to_move != *side {
                return refuse(format!("it is {}'s turn", nm(st.pos.to_move)));
            }
            let squares = st.pos.placement_squares();
            if !st.pos.draw_piece(*piece) {
                return refuse(format!("{} cannot draw a {}", nm(*side), piece.name()));
            }
            lapse_offer(st, *side, users, lines);
            let frame = st.pos.frame();
            if let Some(sq) = square.filter(|sq| !squares.contains(sq)) {
                return refuse(format!("{} is not a square to place on", frame.label(sq)));
            }
            lines.push(format!(
                "{} draws: {} ({}).",
                nm(*side),
                piece.name(),
                piece.letter()
            ));
            check_stalemate(st, settings, users, lines);
            if let Some(sq) = square {
                if st.outcome.is_none() {
                    st.pos.place(*sq);
                    let check = if st.pos.king_en_prise() { "+" } else { "" };
                    // White's first piece is named on the board it makes (b2 of 3×3);
                    // a blind square in the labels it was written in.
                    let shown = if was.width == 1 && was.height == 1 {
                        st.pos.frame()
                    } else {
                        frame
                    };
                    let echo = format!("{}@{}{check}", piece.letter(), shown.label(*sq));
                    lines.push(format!("{} {echo}", nm(*side)));
                    st.last = Some((None, *sq));
                    st.last_text = Some(echo);
                    st.last_move = Some(LastMove {
                        piece: Piece {
                            side: *side,
                            kind: *piece,
                        },
                        from: None,
                        to: *sq,
                        capture: false,
                        check: !check.is_empty(),
                    });
                    turn_begins(st, time, settings, users, lines);
                }
            }
        }
        Action::Place {
            side,
            piece,
            square,
            notation,
        } => {
            if st.pos.to_move != *side || st.pos.revealed != Some(*piece) {
                return refuse(format!("{} has no {} to place", nm(*side), piece.name()));
            }
            if !st.pos.placement_squares().contains(square) {
                return refuse(format!("{notation} is not a legal placement"));
            }
            st.pos.place(*square);
            lapse_offer(st, *side, users, lines);
            lines.push(format!("{} {notation}", nm(*side)));
            st.last = Some((None, *square));
            st.last_text = Some(notation.clone());
            st.last_move = Some(LastMove {
                piece: Piece {
                    side: *side,
                    kind: *piece,
                },
                from: None,
                to: *square,
                capture: false,
                check: st.pos.king_en_prise(),
            });
            turn_begins(st, time, settings, users, lines);
        }
        Action::Move {
            side,
            from,
            to,
            notation,
        } => {
            if st.pos.to_move != *side || st.pos.revealed.is_some() {
                return refuse(format!("{} may not move now", nm(*side)));
            }
            let mv = Move {
                from: *from,
                to: *to,
            };
            if st.pos.at(*from).is_none_or(|p| p.side != *side)
                || !st.pos.moves_from(*from).contains(&mv)
            {
                return refuse(format!("{notation} is not legal"));
            }
            let moved = st.pos.at(*from);
            let captured = st.pos.make(mv);
            lapse_offer(st, *side, users, lines);
            lines.push(format!("{} {notation}", nm(*side)));
            st.last = Some((Some(*from), *to));
            st.last_text = Some(notation.clone());
            st.last_move = moved.map(|piece| LastMove {
                piece,
                from: Some(*from),
                to: *to,
                capture: captured.is_some(),
                check: st.pos.king_en_prise(),
            });
            st.turn_started = time;
            if let Some(Piece {
                kind: Kind::King, ..
            }) = captured
            {
                lines.push(format!(
                    "{} captures {}'s King.",
                    nm(*side),
                    nm(side.other())
                ));
                st.outcome = Some(Outcome::Win {
                    side: *side,
                    how: WinHow::KingCaptured,
                });
            }
            check_stalemate(st, settings, users, lines);
        }
        Action::Stack { side, order } => {
            let stack = &mut st.pos.stacks[side.index()];
            let mut rest = stack.clone();
            for k in order {
                if let Some(i) = rest.iter().position(|x| x == k) {
                    rest.remove(i);
                } else {
                    // A revert brought back pieces the order no longer matches: keep the stack.
                    return Ok(());
                }
            }
            rest.extend(order.iter().copied());
            *stack = rest;
            return Ok(());
        }
        Action::OfferDraw { side } => {
            if st.draw_offer.is_some() {
                return refuse("a draw offer stands already");
            }
            st.draw_offer = Some(*side);
            lines.push(format!(
                "{} offers a draw; {} may /accept or /decline.",
                nm(*side),
                nm(side.other())
            ));
        }
        Action::AcceptDraw { side } => {
            if st.draw_offer != Some(side.other()) {
                return refuse("there is no draw offer to accept");
            }
            st.draw_offer = None;
            lines.push(format!("{} accepts the draw.", nm(*side)));
            st.outcome = Some(Outcome::Draw(DrawReason::Agreement));
        }
        Action::DeclineDraw { side } => {
            let Some(by) = st.draw_offer.take() else {
                return refuse("there is no draw offer");
            };
            if by == *side {
                lines.push(format!("{} withdraws their draw offer.", nm(*side)));
            } else {
                lines.push(format!("{} declines the draw.", nm(*side)));
            }
        }
        Action::Resign { side, organiser } => {
            lines.push(if *organiser {
                format!("The organiser resigns for {}.", nm(*side))
            } else {
                format!("{} resigns.", nm(*side))
            });
            st.outcome = Some(Outcome::Win {
                side: side.other(),
                how: if *organiser {
                    WinHow::OrganiserResigned
                } else {
                    WinHow::Resigned
                },
            });
        }
        Action::Takeback { .. } => {
            st.turn_started = time;
            return Ok(());
        }
        Action::Revert { reseed, .. } => {
            st.turn_started = time;
            if let Some(r) = reseed {
                let (seed, known) = match r.seed {
                    Some(s) => (s, true),
                    None => (derived_seed(&r.hash), false),
                };
                let stacks = st.pos.stacks.clone().map(|mut v| {
                    v.sort();
                    v
                });
                st.pos.stacks = shuffle_stacks(seed, stacks);
                st.seeds.push(SeedInUse {
                    seed,
                    known,
                    hash: r.hash.clone(),
                    from: number,
                });
            }
            return Ok(());
        }
    }
    if let Some(n) = number {
        st.board_number = n;
    }
    if let Some(l) = relabel_line(&was, &st.pos.frame(), &st.pos) {
        lines.push(l);
    }
    Ok(())
}
