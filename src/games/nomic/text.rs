//! The Nomic Chess position text (Nomic rules 6.10): one placement per half-board in local
//! coordinates, local rank 4 first, then the controllers, the Order, the moved flags and the
//! turn state. Fields are separated by single spaces:
//!
//! ```text
//! <half A> <half B> … <controllers> <order> <moved> <turn> <part> <S> <involved> <push> <ep> <offers> <forfeited> <undead>
//! ```
//!
//! - a half: four ranks `/`-separated, pieces `{<letter><army>}`, digits for empty runs;
//! - controllers: `army:player` for every army, comma-separated, `?` for control pending
//!   (`1:1,2:1,3:?`);
//! - the Order: armies comma-separated (`2,1,3`);
//! - moved: the squares (`A:e1,B:h1`) of kings, rooks and pawns on their home squares that
//!   have moved (the only flags that matter), or `-`;
//! - turn: the army whose turn it is (`2`), `u<player>` for an undead player's slot, `-`
//!   when nobody's;
//! - part: `1`, `2` or `3`;
//! - S and involved: half letters (`AB`) or `-`;
//! - push: the halves pushed together for the next move, bottom/top (`A/B`), or `-`;
//! - ep: the square a pawn passed over in the last move (`A:e3`), or `-`;
//! - offers: armies offered to the mover in part 2 (`3,4`), or `-`;
//! - forfeited: players who forfeited, or `-`;
//! - undead: undead players, earliest time of infection first, or `-`.

use super::position::{half_letter, half_of_letter, Join, Kind, Local, Piece, Position, Slot};

/// A field of the position text.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Field {
    /// A half-board's placement.
    Half,
    /// Controllers.
    Controllers,
    /// The Order.
    Order,
    /// Moved flags.
    Moved,
    /// Whose turn.
    Turn,
    /// Part.
    Part,
    /// S.
    S,
    /// Halves involved.
    Involved,
    /// The push standing.
    Push,
    /// En passant.
    EnPassant,
    /// Offers.
    Offers,
    /// Forfeited players.
    Forfeited,
    /// Undead players.
    Undead,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::Half => "half-board",
            Field::Controllers => "controllers",
            Field::Order => "order",
            Field::Moved => "moved",
            Field::Turn => "turn",
            Field::Part => "part",
            Field::S => "S",
            Field::Involved => "involved",
            Field::Push => "push",
            Field::EnPassant => "en passant",
            Field::Offers => "offers",
            Field::Forfeited => "forfeited",
            Field::Undead => "undead",
        }
    }
}

/// A position text that does not read: the field and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} field: {message}", field.name())]
pub struct TextError {
    /// The field.
    pub field: Field,
    /// What is wrong.
    pub message: String,
}

fn bad<T>(field: Field, message: impl Into<String>) -> Result<T, TextError> {
    Err(TextError {
        field,
        message: message.into(),
    })
}

fn list(v: impl IntoIterator<Item = usize>) -> String {
    let s: Vec<String> = v.into_iter().map(|x| (x + 1).to_string()).collect();
    if s.is_empty() {
        "-".into()
    } else {
        s.join(",")
    }
}

fn halves_text(v: &[bool]) -> String {
    let s: String = (0..v.len()).filter(|&h| v[h]).map(half_letter).collect();
    if s.is_empty() {
        "-".into()
    } else {
        s
    }
}

fn read_list(field: Field, text: &str, n: usize) -> Result<Vec<usize>, TextError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    let mut v = Vec::new();
    for t in text.split(',') {
        match t.parse::<usize>() {
            Ok(x) if (1..=n).contains(&x) => v.push(x - 1),
            _ => return bad(field, format!("`{t}` is not a number from 1 to {n}")),
        }
    }
    Ok(v)
}

fn read_halves(field: Field, text: &str, n: usize) -> Result<Vec<bool>, TextError> {
    let mut v = vec![false; n];
    if text == "-" {
        return Ok(v);
    }
    for c in text.chars() {
        match half_of_letter(c) {
            Some(h) if h < n && c.is_ascii_uppercase() => v[h] = true,
            _ => {
                return bad(
                    field,
                    format!("`{c}` is not a half from A to {}", half_letter(n - 1)),
                )
            }
        }
    }
    Ok(v)
}

fn read_half(text: &str, n: usize) -> Result<super::position::Half, TextError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 4 {
        return bad(
            Field::Half,
            format!("`{text}` has {} ranks, not 4", ranks.len()),
        );
    }
    let mut h: super::position::Half = [[None; 8]; 4];
    for (i, row) in ranks.iter().enumerate() {
        let r = 3 - i;
        let mut f = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                let mut num = c.to_string();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    num.push(*d);
                    chars.next();
                }
                f += num.parse::<usize>().unwrap_or(99);
            } else if c == '{' {
                let mut inner = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(x) => inner.push(x),
                        None => return bad(Field::Half, format!("`{row}`: an unclosed {{")),
                    }
                }
                let mut ic = inner.chars();
                let kind = ic.next().and_then(Kind::from_letter);
                let army = ic.as_str().parse::<usize>().ok();
                match (kind, army) {
                    (Some(kind), Some(a)) if (1..=n).contains(&a) => {
                        if f >= 8 {
                            return bad(Field::Half, format!("`{row}` is longer than 8 files"));
                        }
                        h[r][f] = Some(Piece {
                            kind,
                            army: a - 1,
                            moved: true,
                        });
                        f += 1;
                    }
                    _ => {
                        return bad(
                            Field::Half,
                            format!(
                            "`{{{inner}}}` is not a piece (K Q R B N P and an army from 1 to {n})"
                        ),
                        )
                    }
                }
            } else {
                return bad(
                    Field::Half,
                    format!("`{c}` in `{row}` (write pieces as {{K1}})"),
                );
            }
            if f > 8 {
                return bad(Field::Half, format!("`{row}` is longer than 8 files"));
            }
        }
        if f != 8 {
            return bad(Field::Half, format!("`{row}` has {f} files, not 8"));
        }
    }
    Ok(h)
}

impl Position {
    /// The position text (see the module documentation).
    pub fn to_text(&self) -> String {
        let n = self.players();
        let mut f: Vec<String> = (0..n).map(|h| self.half_placement(h)).collect();
        f.push(
            self.controllers
                .iter()
                .enumerate()
                .map(|(a, c)| match c {
                    Some(p) => format!("{}:{}", a + 1, p + 1),
                    None => format!("{}:?", a + 1),
                })
                .collect::<Vec<_>>()
                .join(","),
        );
        f.push(list(self.order.iter().copied()));
        let moved: Vec<String> = self
            .pieces()
            .into_iter()
            .filter(|&(l, p)| Position::flag_matters(l, p) && p.moved)
            .map(|(l, _)| l.name())
            .collect();
        f.push(if moved.is_empty() {
            "-".into()
        } else {
            moved.join(",")
        });
        f.push(match self.turn.slot {
            Slot::Army(a) => (a + 1).to_string(),
            Slot::Undead(p) => format!("u{}", p + 1),
            Slot::Idle => "-".into(),
        });
        f.push(self.turn.part.to_string());
        f.push(halves_text(&self.turn.s));
        f.push(halves_text(&self.turn.involved));
        f.push(self.turn.join.map_or("-".into(), Join::text));
        f.push(self.ep.map_or("-".into(), Local::name));
        f.push(list(self.offers.iter().copied()));
        f.push(list((0..n).filter(|&p| self.forfeited[p])));
        f.push(list(self.infected.iter().copied()));
        f.join(" ")
    }

    /// Reads a position text.
    ///
    /// # Errors
    /// The first field that does not read, and why.
    pub fn from_text(text: &str) -> Result<Position, TextError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let n = fields
            .iter()
            .take_while(|f| f.matches('/').count() == 3)
            .count();
        if n < 2 {
            return bad(
                Field::Half,
                "the text must begin with one placement per half-board (at least two), each four ranks separated by /",
            );
        }
        if n > 26 {
            return bad(Field::Half, "at most 26 half-boards");
        }
        let rest = &fields[n..];
        // Controllers, order, moved, turn, part, S, involved, push and ep are needed;
        // offers, forfeited and undead may be left out.
        let get = |i: usize, field: Field| -> Result<&str, TextError> {
            rest.get(i).copied().ok_or(TextError {
                field,
                message: "missing".into(),
            })
        };
        let mut halves = Vec::with_capacity(n);
        for f in &fields[..n] {
            halves.push(read_half(f, n)?);
        }
        let mut pos = Position::start(n, (0..n).collect());
        pos.halves = halves;
        // Controllers.
        let c = get(0, Field::Controllers)?;
        let mut controllers = vec![None; n];
        let mut seen = vec![false; n];
        for pair in c.split(',') {
            let Some((a, p)) = pair.split_once(':') else {
                return bad(Field::Controllers, format!("`{pair}` is not army:player"));
            };
            let a = match a.parse::<usize>() {
                Ok(a) if (1..=n).contains(&a) => a - 1,
                _ => {
                    return bad(
                        Field::Controllers,
                        format!("`{a}` is not an army from 1 to {n}"),
                    )
                }
            };
            if seen[a] {
                return bad(Field::Controllers, format!("army {} is given twice", a + 1));
            }
            seen[a] = true;
            controllers[a] = match p {
                "?" => None,
                _ => match p.parse::<usize>() {
                    Ok(p) if (1..=n).contains(&p) => Some(p - 1),
                    _ => {
                        return bad(
                            Field::Controllers,
                            format!("`{p}` is not a player from 1 to {n} (or ? for pending)"),
                        )
                    }
                },
            };
        }
        if let Some(a) = seen.iter().position(|s| !s) {
            return bad(
                Field::Controllers,
                format!("army {} has no controller", a + 1),
            );
        }
        pos.controllers = controllers;
        // Order.
        let order = read_list(Field::Order, get(1, Field::Order)?, n)?;
        let mut sorted = order.clone();
        sorted.sort_unstable();
        if sorted != (0..n).collect::<Vec<_>>() {
            return bad(
                Field::Order,
                format!("the Order must list every army 1 to {n} once"),
            );
        }
        pos.order = order;
        // Moved flags.
        let moved = get(2, Field::Moved)?;
        let mut moved_sq = Vec::new();
        if moved != "-" {
            for t in moved.split(',') {
                let Some(l) = Local::parse(t).filter(|l| l.half < n) else {
                    return bad(Field::Moved, format!("`{t}` is not a square like A:e1"));
                };
                match pos.at(l) {
                    Some(p) if Position::flag_matters(l, p) => moved_sq.push(l),
                    _ => {
                        return bad(
                            Field::Moved,
                            format!("{t} holds no king, rook or pawn on its home square"),
                        )
                    }
                }
            }
        }
        for (l, mut p) in pos.pieces() {
            p.moved = !Position::flag_matters(l, p) || moved_sq.contains(&l);
            pos.set(l, Some(p));
        }
        // Turn.
        let t = get(3, Field::Turn)?;
        pos.turn.slot = if t == "-" {
            Slot::Idle
        } else if let Some(u) = t.strip_prefix('u') {
            match u.parse::<usize>() {
                Ok(p) if (1..=n).contains(&p) => Slot::Undead(p - 1),
                _ => return bad(Field::Turn, format!("`{t}`: u and a player from 1 to {n}")),
            }
        } else {
            match t.parse::<usize>() {
                Ok(a) if (1..=n).contains(&a) => Slot::Army(a - 1),
                _ => {
                    return bad(
                        Field::Turn,
                        format!("`{t}` is not an army from 1 to {n}, u<player> or -"),
                    )
                }
            }
        };
        pos.turn.part = match get(4, Field::Part)? {
            "1" => 1,
            "2" => 2,
            "3" => 3,
            other => return bad(Field::Part, format!("`{other}` is not 1, 2 or 3")),
        };
        pos.turn.s = read_halves(Field::S, get(5, Field::S)?, n)?;
        pos.turn.involved = read_halves(Field::Involved, get(6, Field::Involved)?, n)?;
        let push = get(7, Field::Push)?;
        pos.turn.join = if push == "-" {
            None
        } else {
            let mut c = push.chars();
            match (c.next(), c.next(), c.next(), c.next()) {
                (Some(b), Some('/'), Some(t), None) => {
                    match (half_of_letter(b), half_of_letter(t)) {
                        (Some(b), Some(t)) if b < n && t < n && b != t => {
                            Some(Join { bottom: b, top: t })
                        }
                        _ => {
                            return bad(Field::Push, format!("`{push}` is not two halves like A/B"))
                        }
                    }
                }
                _ => return bad(Field::Push, format!("`{push}` is not bottom/top like A/B")),
            }
        };
        let ep = get(8, Field::EnPassant)?;
        pos.ep = if ep == "-" {
            None
        } else {
            match Local::parse(ep).filter(|l| l.half < n && l.rank == 2) {
                Some(l) => Some(l),
                None => {
                    return bad(
                        Field::EnPassant,
                        format!("`{ep}` is not a local rank-3 square like A:e3"),
                    )
                }
            }
        };
        pos.offers = match rest.get(9) {
            Some(t) => read_list(Field::Offers, t, n)?,
            None => Vec::new(),
        };
        pos.forfeited = vec![false; n];
        if let Some(t) = rest.get(10) {
            for p in read_list(Field::Forfeited, t, n)? {
                pos.forfeited[p] = true;
            }
        }
        pos.infected = match rest.get(11) {
            Some(t) => read_list(Field::Undead, t, n)?,
            None => Vec::new(),
        };
        if rest.len() > 12 {
            return bad(
                Field::Undead,
                format!("unexpected `{}` after the last field", rest[12]),
            );
        }
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_reads_back() {
        let mut p = Position::start(3, vec![2, 0, 1]);
        p.turn.slot = Slot::Army(2);
        p.turn.s = p.halves_of(2);
        let t = p.to_text();
        assert!(t.starts_with("8/8/{P1}{P1}"), "{t}");
        assert!(t.contains(" 1:1,2:2,3:3 3,1,2 - 3 1 C - - - - - -"), "{t}");
        let q = Position::from_text(&t).expect("reads");
        assert_eq!(q.to_text(), t);
        assert_eq!(
            (q.controllers, q.order, q.turn),
            (p.controllers, p.order, p.turn)
        );
    }

    #[test]
    fn wrong_fields_are_named() {
        let e = Position::from_text("8/8/8/8 8/8/8/8 1:1 1,2 - 1 1 A - - -").unwrap_err();
        assert_eq!(e.field, Field::Controllers);
        let e = Position::from_text("8/8/8/8 8/8/8/{X1}7 1:1,2:2 1,2 - 1 1 A - - -").unwrap_err();
        assert_eq!(e.field, Field::Half);
        let e = Position::from_text("8/8/8/8 8/8/8/8 1:1,2:2 1,1 - 1 1 A - - -").unwrap_err();
        assert_eq!(e.field, Field::Order);
        let e = Position::from_text("8/8/8/8 8/8/8/8 1:1,2:2 1,2 - 1 4 A - - -").unwrap_err();
        assert_eq!(e.field, Field::Part);
        let e = Position::from_text("8/8/8/8 8/8/8/8 1:1,2:2 1,2 A:e1 1 1 A - - -").unwrap_err();
        assert_eq!(e.field, Field::Moved);
        let ok = Position::from_text("8/8/8/8 8/8/8/8 1:1,2:? 2,1 - - 1 - - - - - 2 1");
        let ok = ok.expect("reads");
        assert_eq!(ok.controllers, vec![Some(0), None]);
        assert!(ok.forfeited[1]);
        assert_eq!(ok.infected, vec![0]);
    }
}
