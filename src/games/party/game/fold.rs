//! The fold: one logged action applied to the state, with the steps it shares with the turn
//! limits (echo text, piece picks, the seat order, Rounds, Warmth and the start of a turn).
//! Replaying the log goes through here only.

use super::*;

/// The echo of a play: its notation with `+` when it checks another Swinger.
pub(super) fn echo(pos: &Position, play: &Play) -> String {
    let t = notation::format_exact(pos, play);
    if matches!(play, Play::Move(_) | Play::Place { .. }) && notation::gives_check(pos, play) {
        format!("{t}+")
    } else {
        t
    }
}

/// Reads a pick of five pieces (Party rules 3.3).
///
/// # Errors
/// Not five, an unknown letter, il-Nabi or a Zombie, a King, two Tornados, value over 30.
pub fn parse_pick(letters: &str) -> R<Vec<Kind>> {
    let mut kinds = Vec::new();
    for c in letters.chars().filter(|c| !c.is_whitespace() && *c != ',') {
        kinds.push(parse_kind(&c.to_string())?);
    }
    if kinds.len() != 5 {
        return refuse(format!(
            "pick exactly five pieces (you named {}), like set:RRCJP",
            kinds.len()
        ));
    }
    if kinds.contains(&Kind::King) {
        return Err("every Swinger receives one King; pick five other pieces".into());
    }
    if kinds.iter().filter(|&&k| k == Kind::Tornado).count() > 1 {
        return Err("at most one Tornado (its instance limit is one)".into());
    }
    let total: u32 = kinds.iter().map(|k| k.value()).sum();
    if total > 30 {
        return refuse(format!(
            "those pieces are worth {total}; the five may be worth at most 30"
        ));
    }
    Ok(kinds)
}

/// Moves the mover to the bottom, then every checked Swinger above the unchecked ones,
/// keeping their order (Party rules 3.3); returns the checked.
pub(super) fn reorder(pos: &mut Position, mover: Option<u8>) -> Vec<u8> {
    if let Some(m) = mover {
        if let Some(i) = pos.list.iter().position(|&s| s == m) {
            pos.list.remove(i);
            pos.list.push(m);
        }
    }
    let checked: Vec<u8> = pos
        .list
        .iter()
        .copied()
        .filter(|&s| in_check(pos, s))
        .collect();
    let rest: Vec<u8> = pos
        .list
        .iter()
        .copied()
        .filter(|s| !checked.contains(s))
        .collect();
    pos.list = checked.iter().copied().chain(rest).collect();
    checked
}

/// Marks a seat as having played; ends the Round when everyone has, with Warmth's count.
pub(super) fn played(st: &mut State, seat: u8, lines: &mut Vec<String>) {
    st.played.insert(seat);
    round_check(st, lines);
}

pub(super) fn round_check(st: &mut State, lines: &mut Vec<String>) {
    if st.pos.list.is_empty() || !st.pos.list.iter().all(|s| st.played.contains(s)) {
        return;
    }
    st.round_count += 1;
    st.played.clear();
    lines.push(format!("Round {} is over.", st.round_count));
    let warm: Vec<u8> = st.warm.iter().copied().collect();
    for s in warm {
        if st.warm_at_round_start.contains(&s) {
            let n = st.warm_rounds.entry(s).or_default();
            *n += 1;
            if *n >= 2 {
                *n = 0;
                apply(&mut st.pos, s, &Play::Surrender);
                lines.push(format!(
                    "{} has been Warm for two whole Rounds and is considered to have Surrendered.",
                    user_of(st, s)
                ));
            }
        }
    }
    st.warm_at_round_start = st.warm.clone();
}

pub(super) fn user_of(st: &State, seat: u8) -> String {
    st.users
        .get(usize::from(seat).saturating_sub(1))
        .cloned()
        .unwrap_or_default()
}

/// Turn start: skips (seven or more Swingers with on-board pieces) and Warm passes.
pub(super) fn begin_turn(st: &mut State, now: Timestamp, lines: &mut Vec<String>) {
    st.turn_started = now;
    st.extended = None;
    if !st.started {
        return;
    }
    for _ in 0..st.pos.list.len() {
        let Some(top) = st.pos.to_play() else { return };
        let with_pieces = st.pos.list.iter().filter(|&&s| st.pos.on_board(s)).count();
        if with_pieces >= 7 && !st.pos.on_board(top) {
            st.pos.list.remove(0);
            st.pos.list.push(top);
            st.pos.echo.insert(top, None);
            lines.push(format!(
                "{} has no pieces on the board and is skipped (seven or more Swingers have).",
                user_of(st, top)
            ));
            played(st, top, lines);
            continue;
        }
        if st.warm.contains(&top) && !in_check(&st.pos, top) {
            apply(&mut st.pos, top, &Play::Pass);
            reorder(&mut st.pos, Some(top));
            lines.push(format!("{} is Warm and passes.", user_of(st, top)));
            played(st, top, lines);
            continue;
        }
        return;
    }
}

pub(super) fn fold(
    st: &mut State,
    settings: &Settings,
    action: &Action,
    now: Timestamp,
    lines: &mut Vec<String>,
) -> R<()> {
    match action {
        Action::Start {
            users,
            umpire,
            position,
        } => {
            st.users = users.clone();
            st.umpire = umpire.clone();
            match position {
                Some(text) => {
                    st.pos = Position::from_text(text).map_err(|e| e.to_string())?;
                    st.picked = st.pos.list.iter().copied().collect();
                    st.started = true;
                }
                None => {
                    let n = users.len() as u8;
                    st.pos = Position::empty((1..=n).collect());
                    st.pos.echo_rule = settings.echo;
                    for s in 1..=n {
                        st.pos.give(s, Piece::new(Kind::King, s));
                    }
                }
            }
            st.turn_started = now;
        }
        Action::Pick { seat, pieces } => {
            for &k in pieces {
                st.pos.give(*seat, Piece::new(k, *seat));
            }
            st.pos.enforce_limits(*seat);
            st.picked.insert(*seat);
            let picks: String = pieces.iter().map(|k| k.letter()).collect();
            lines.push(format!("{} picks {picks}.", user_of(st, *seat)));
            if !st.started && st.pos.list.iter().all(|s| st.picked.contains(s)) {
                st.started = true;
                lines.push("Every Swinger has picked: play begins.".into());
                begin_turn(st, now, lines);
            }
        }
        Action::Play {
            seat,
            notation: text,
            how,
        } => {
            if *how == How::OutOfTurn {
                apply(&mut st.pos, *seat, &Play::Surrender);
                lines.push(format!(
                    "{} (Warm) surrenders out of turn.",
                    user_of(st, *seat)
                ));
                return Ok(());
            }
            if st.pos.to_play() != Some(*seat) {
                return refuse(format!("seat {seat} is not to play"));
            }
            let play = notation::resolve(&st.pos, text)?;
            let shown = echo(&st.pos, &play);
            apply(&mut st.pos, *seat, &play);
            let who = user_of(st, *seat);
            lines.push(match how {
                How::Default => format!("{who}'s turn expired: {shown} (the default play)."),
                _ => format!("{who}: {shown}"),
            });
            st.last = Some(LastPlay {
                seat: *seat,
                play,
                text: shown,
            });
            reorder(&mut st.pos, Some(*seat));
            played(st, *seat, lines);
            begin_turn(st, now, lines);
            if *how == How::Default {
                st.ran_out.insert(*seat);
                let active: Vec<u8> = st
                    .pos
                    .list
                    .iter()
                    .copied()
                    .filter(|s| !st.warm.contains(s))
                    .collect();
                // `stall:off`: the game never pauses.
                if settings.pace.stall != Some(0) && active.iter().all(|s| st.ran_out.contains(s)) {
                    st.stalled = Some(now);
                    lines.push(STALLED.into());
                }
            } else {
                st.ran_out.clear();
                st.stalled = None;
            }
        }
        Action::Substitute(h) => {
            if let Some(u) = st.users.get_mut(h.seat) {
                u.clone_from(&h.to);
            }
            // The incoming player starts with a fresh limit (RULINGS §9).
            if st.started && st.pos.to_play().map(usize::from) == Some(h.seat) {
                st.turn_started = now;
                st.extended = None;
            }
            lines.push(format!("{}.", h.text()));
        }
        Action::Resume => {
            st.stalled = None;
            st.ran_out.clear();
            st.turn_started = now;
            st.extended = None;
            lines.push("The game resumes: the turn limit runs from now.".into());
        }
        Action::Extend { seat, until } => {
            st.extended = Some(st.turn_started + until);
            lines.push(format!(
                "{}'s turn is extended to {} after its announcement.",
                user_of(st, *seat),
                format_duration(*until)
            ));
        }
        Action::Warm { seat, on } => {
            if *on {
                st.warm.insert(*seat);
            } else {
                st.warm.remove(seat);
                st.warm_rounds.remove(seat);
                st.warm_at_round_start.remove(seat);
            }
            lines.push(format!(
                "{} is {}Warm.",
                user_of(st, *seat),
                if *on { "" } else { "no longer " }
            ));
            if *on && st.pos.to_play() == Some(*seat) {
                begin_turn(st, now, lines);
            }
        }
        Action::Left { seat } => {
            st.warm.insert(*seat);
            lines.push(format!(
                "{} left the server and is Warm.",
                user_of(st, *seat)
            ));
            if st.pos.to_play() == Some(*seat) {
                begin_turn(st, now, lines);
            }
        }
        Action::AddSwinger { user } => {
            st.users.push(user.clone());
            let seat = st.users.len() as u8;
            st.pos.list.push(seat);
            st.pos.echo.insert(seat, None);
            st.pos.give(seat, Piece::new(Kind::King, seat));
            lines.push(format!(
                "{user} joins as seat {seat}, at the bottom of the Play List, with a King; pick five pieces with /party pieces set:"
            ));
        }
        Action::RemoveSwinger { seat } => {
            st.pos.remove_seat(*seat);
            st.played.remove(seat);
            st.warm.remove(seat);
            lines.push(format!(
                "{}'s office is destroyed with all its pieces.",
                user_of(st, *seat)
            ));
            round_check(st, lines);
            begin_turn(st, now, lines);
        }
        Action::Create { seat, kind } => {
            st.pos.give(*seat, Piece::new(*kind, *seat));
            let cost = 1 + 7 * kind.value();
            let line = format!(
                "{} bought for {}: A${cost}",
                kind.name(),
                user_of(st, *seat)
            );
            lines.push(format!("{line} (noted in the ledger)."));
            st.ledger.push(line);
        }
        Action::Ledger { entry, text } => match entry {
            Some(n) => {
                if let Some(l) = st.ledger.get_mut(n.saturating_sub(1)) {
                    *l = text.clone();
                }
                lines.push(format!("Ledger line {n}: {text}"));
            }
            None => {
                st.ledger.push(text.clone());
                lines.push(format!("Ledger line {}: {text}", st.ledger.len()));
            }
        },
        Action::End { result } => {
            st.ended = Some(result.clone());
            lines.push("The Chess-Umpire ends the game (Party Chess has no other end).".into());
        }
        Action::Takeback { .. } | Action::Revert { .. } => {
            st.turn_started = now;
            st.extended = None;
        }
    }
    Ok(())
}
