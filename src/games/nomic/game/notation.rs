//! Reading and writing Nomic texts: move notation on the joined board J (and why a move does
//! not read or is not legal), a proposal's change and piece names, and a short description of
//! each action for previews and exports. Pure text work, apart from the rules.

use super::*;

/// Parses a move as written (`Nb1-c3`, `e2xd3`, `e7-e8=Q`, `0-0`): (piece letter, from, to,
/// promotion) or castling.
/// A move as read: piece letter, from, to, promotion, castling.
pub(super) type Written = (Option<Kind>, (u8, u8), (u8, u8), Option<Kind>, Special);

pub(super) fn parse_move(text: &str) -> Option<Written> {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    match t {
        "0-0" | "O-O" => return Some((None, (0, 0), (0, 0), None, Special::CastleKing)),
        "0-0-0" | "O-O-O" => return Some((None, (0, 0), (0, 0), None, Special::CastleQueen)),
        _ => {}
    }
    let mut s = t;
    let mut letter = None;
    let mut c = s.chars();
    let (first, second) = (c.next()?, c.next());
    // A piece letter, upper case, or lower case where no file letter could be meant (a file
    // letter is followed by its rank: `nb1-c3` is the knight, `b1-c3` the pawn).
    if first.is_ascii_uppercase()
        || (first.is_ascii_lowercase() && second.is_some_and(|c| c.is_ascii_lowercase()))
    {
        letter = Some(Kind::from_letter(first.to_ascii_uppercase())?);
        s = &s[1..];
    }
    let (body, promo) = match s.split_once('=') {
        Some((b, p)) => {
            let mut pc = p.chars();
            let k = Kind::from_letter(pc.next()?.to_ascii_uppercase())?;
            if pc.next().is_some() {
                return None;
            }
            (b, Some(k))
        }
        None => (s, None),
    };
    // The separator may be left out (`e2e4`): the to-square starts at the next letter.
    let (from, to) = match body.find(['-', 'x']) {
        Some(sep) => (&body[..sep], &body[sep + 1..]),
        None => body.split_at(body.get(1..)?.find(|c: char| c.is_ascii_alphabetic())? + 1),
    };
    let from = parse_square(from, 8)?;
    let to = parse_square(to, 8)?;
    Some((letter, from, to, promo, Special::Plain))
}

/// A move written with upper-case square letters (`E2-E4`, `NB1-C3`, `D2XE3`: a capture mark
/// between two squares too) as it reads with them in lower case, if it then reads.
pub(super) fn lower_squares(text: &str) -> Option<String> {
    let c: Vec<char> = text.trim().chars().collect();
    let out: String = c
        .iter()
        .enumerate()
        .map(|(i, &ch)| {
            let before_digit = c.get(i + 1).is_some_and(char::is_ascii_digit);
            let capture = ch == 'X'
                && i > 0
                && c.get(i - 1).is_some_and(char::is_ascii_digit)
                && c.get(i + 1).is_some_and(char::is_ascii_alphabetic);
            if (('A'..='H').contains(&ch) && before_digit) || capture {
                ch.to_ascii_lowercase()
            } else {
                ch
            }
        })
        .collect();
    (out != text.trim() && parse_move(&out).is_some()).then_some(out)
}

/// A move in short algebraic (`e4`, `Nf3`, `Nxf3`): the piece letter (`None`: a pawn) and the
/// to-square.
pub(super) fn short_algebraic(text: &str) -> Option<(Option<Kind>, (u8, u8))> {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let mut c = t.chars();
    let first = c.next()?;
    let (letter, rest) = if first.is_ascii_uppercase() {
        (Some(Kind::from_letter(first)?), c.as_str())
    } else {
        (None, t)
    };
    let rest = rest.strip_prefix('x').unwrap_or(rest);
    Some((letter, parse_square(rest, 8)?))
}

/// Reads `Q1` (a piece letter and an army).
pub fn parse_piece(text: &str, n: usize) -> Option<(Kind, usize)> {
    let mut c = text.trim().chars();
    let k = Kind::from_letter(c.next()?.to_ascii_uppercase())?;
    let a: usize = c.as_str().parse().ok()?;
    (1..=n).contains(&a).then(|| (k, a - 1))
}

/// What a proposal's text does: `Repeal rule N`, `Amend rule N to read: …`, or an enactment.
pub fn change_of(text: &str) -> Change {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let number_after = |word: &str| -> Option<(u32, usize)> {
        let rest = lower.strip_prefix(word)?;
        let rest_trim = rest.trim_start();
        let rest_trim = rest_trim
            .strip_prefix("rule")
            .unwrap_or(rest_trim)
            .trim_start();
        let digits: String = rest_trim.chars().take_while(char::is_ascii_digit).collect();
        let n: u32 = digits.parse().ok()?;
        let consumed = lower.len() - rest_trim.len() + digits.len();
        Some((n, consumed))
    };
    if let Some((n, _)) = number_after("repeal") {
        return Change::Repeal(n);
    }
    if let Some((n, at)) = number_after("amend") {
        let rest = &t[at..];
        let body = match rest.to_ascii_lowercase().find("to read:") {
            Some(i) => rest[i + "to read:".len()..].trim(),
            None => rest.trim_start_matches([':', ',', '.', ' ']).trim(),
        };
        return Change::Amend(n, body.to_string());
    }
    Change::Enact
}

impl OnJ {
    /// The legal move a text written in J's coordinates names, or why it is refused.
    pub(super) fn read(&self, pos: &Position, notation: &str) -> Result<Move, Refusal> {
        let Some((letter, from, to, promo, special)) = parse_move(notation) else {
            return refuse(self.unreadable(pos, notation));
        };
        let b = &self.b;
        let cands: Vec<Move> = self
            .legal
            .iter()
            .copied()
            .filter(|m| match special {
                Special::CastleKing | Special::CastleQueen => m.special == special,
                _ => {
                    m.from == from
                        && m.to == to
                        && !matches!(m.special, Special::CastleKing | Special::CastleQueen)
                }
            })
            .filter(|m| m.promo == promo)
            .collect();
        let piece_ok = |m: &Move| match letter {
            None => true,
            Some(k) => b[m.from.1 as usize][m.from.0 as usize].is_some_and(|p| p.kind == k),
        };
        match cands.into_iter().find(piece_ok) {
            Some(m) => Ok(m),
            None => refuse(self.illegal(pos, notation, from, special)),
        }
    }

    /// A refused move says first that a king of the mover's is in check, with the legal
    /// moves (Nomic rules 6.5).
    pub(super) fn check_first(&self, pos: &Position) -> Option<String> {
        let (sq, _) = pos
            .attacked_kings(&self.b, self.join)
            .into_iter()
            .find(|&(_, y)| pos.same_side(y, self.army))?;
        let mut list: Vec<String> = self.legal.iter().map(|&m| move_text(&self.b, m)).collect();
        list.sort();
        if list.len() > 12 {
            list.truncate(12);
            list.push("…".into());
        }
        Some(format!(
            "your King on {} is in check; legal moves: {}",
            super::super::position::square_text(sq.0, sq.1),
            list.join(" ")
        ))
    }

    /// Why a text that is not a move is refused, with a hint at how to write it.
    pub(super) fn unreadable(&self, pos: &Position, notation: &str) -> String {
        if let Some(why) = self.check_first(pos) {
            return why;
        }
        if let Some(lower) = lower_squares(notation) {
            return format!("square letters are lower case: {lower}");
        }
        if let Some((kind, sq)) = short_algebraic(notation) {
            let kind = kind.unwrap_or(Kind::Pawn);
            let reach: Vec<String> = self
                .legal
                .iter()
                .filter(|m| {
                    m.to == sq
                        && self.b[m.from.1 as usize][m.from.0 as usize]
                            .is_some_and(|p| p.kind == kind)
                })
                .map(|&m| move_text(&self.b, m))
                .collect();
            return match reach.as_slice() {
                [one] => format!("write the move from-to: {one}"),
                _ => "write the move from-to, like e2-e4".to_string(),
            };
        }
        format!(
            "`{notation}` is not a move (write it in J's coordinates like e2-e4, Nb1-c3, e7-e8=Q, 0-0)"
        )
    }

    /// Why a move that reads but is not legal now is refused, with what may be played.
    pub(super) fn illegal(
        &self,
        pos: &Position,
        notation: &str,
        from: (u8, u8),
        special: Special,
    ) -> String {
        if let Some(why) = self.check_first(pos) {
            return why;
        }
        let of: Vec<String> = self
            .legal
            .iter()
            .filter(|m| m.from == from)
            .map(|&m| move_text(&self.b, m))
            .collect();
        let sq = super::super::position::square_text(from.0, from.1);
        if special != Special::Plain {
            format!("{notation} is not legal now")
        } else if of.is_empty() {
            let legal: Vec<String> = self.legal.iter().map(|&m| move_text(&self.b, m)).collect();
            format!(
                "{notation} is not legal: army {} has no legal move from {sq} (J {}, local {}); its legal moves on this push: {}",
                self.army + 1,
                sq,
                self.join.local(from.0, from.1).name(),
                legal.join(" ")
            )
        } else {
            format!(
                "{notation} is not legal: the piece on {sq} can play: {}",
                of.join(" ")
            )
        }
    }
}

/// A short description of an action (for previews and exports): a Referee's or the
/// organiser's bookkeeping as it was typed (`/edit remove square:A:a1`), halves by letter and
/// armies and players as the game names them.
pub fn describe(a: &Action, players: &[String]) -> String {
    let user = |p: usize| {
        players
            .get(p)
            .map_or_else(|| format!("player {}", p + 1), |u| format!("@{u}"))
    };
    let halves = |v: &[bool]| -> String {
        let s: String = (0..v.len()).filter(|&h| v[h]).map(half_letter).collect();
        if s.is_empty() {
            "-".into()
        } else {
            s
        }
    };
    match a {
        Action::Start { .. } => "the game starts".into(),
        Action::Push { join } => format!("push {}", join.text()),
        Action::Move { notation } => format!("move {notation}"),
        Action::Done => "done".into(),
        Action::Take { army } => format!("take army {}", army + 1),
        Action::Decline { army } => format!("decline army {}", army + 1),
        Action::Propose { text, .. } => format!("propose: {text}"),
        Action::Vote { proposal, choice } => format!(
            "vote {} proposal {proposal}",
            if *choice { "for" } else { "against" }
        ),
        Action::Demote { square } => format!("demote {}", square.name()),
        Action::Forfeit => "forfeit".into(),
        Action::Judgment { question, .. } => format!("judgment: {question}"),
        Action::Judge { judgment, text } => format!("judge {judgment}: {text}"),
        Action::Overrule { judgment } => format!("overrule judgment {judgment}"),
        Action::Pause => "/pause".into(),
        Action::Resume => "/resume".into(),
        Action::Substitute(h) => format!("/substitute player:@{} by:@{}", h.from, h.to),
        Action::Assign { army, player } => {
            format!("/assign army:{} to:{}", army + 1, user(*player))
        }
        Action::Edit(e) => match e {
            Edit::Put { square, kind, army } => format!(
                "/edit put square:{} piece:{}{}",
                square.name(),
                kind.letter(),
                army + 1
            ),
            Edit::Remove { square } => format!("/edit remove square:{}", square.name()),
            Edit::Move { from, to } => {
                format!("/edit move from:{} to:{}", from.name(), to.name())
            }
            Edit::Position { text } => format!("/edit position text:{text}"),
            Edit::Clock { add } => format!("/edit clock add:{}", format_duration(*add)),
            Edit::ClockLeft { left } => format!("/edit clock left:{}", format_duration(*left)),
            Edit::Budget { s, involved } => {
                format!("/edit budget s:{} involved:{}", halves(s), halves(involved))
            }
            Edit::Forfeited { player, on } => format!(
                "/edit player player:{} forfeited:{}",
                user(*player),
                if *on { "on" } else { "off" }
            ),
            Edit::Controller { army, player } => format!(
                "/edit controller army:{} to:{}",
                army + 1,
                player.map_or_else(|| "pending".to_string(), user)
            ),
            Edit::Undead { order } => {
                let v: Vec<String> = order.iter().map(|&p| user(p)).collect();
                format!(
                    "/edit undead order:{}",
                    if v.is_empty() {
                        "-".into()
                    } else {
                        v.join(" ")
                    }
                )
            }
        },
        Action::Order { order } => format!(
            "/order set:{}",
            order
                .iter()
                .map(|a| (a + 1).to_string())
                .collect::<Vec<_>>()
                .join(",")
        ),
        Action::Set { key, value } => format!("/set {key}:{value}"),
        Action::Void { proposal } => format!("/proposal void proposal:{proposal}"),
        Action::Fix { proposal, text } => {
            format!("/proposal fix proposal:{proposal} text:{text}")
        }
        Action::Referee { add, user } => format!(
            "/nomic referee {} player:@{user}",
            if *add { "add" } else { "remove" }
        ),
        Action::Takeback { undone } => format!("takeback of #{undone}"),
        Action::Revert { to, .. } => format!("revert to before #{to}"),
    }
}
