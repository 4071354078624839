//! The position text (Party rules 3.8 and the pinned interface of issue 19):
//! `<placement> [<hands>] <play list> <echo sources>`.
//!
//! - placement: ranks 20 down to 1 separated by `/`; a run of empty squares is its length in
//!   digits; a piece is `{<letter><seat>}` (`{R3}`, `{!2}`), a HarfyBlob with its range
//!   (`{H2:3}`; a bare `{H2}` reads as range 1);
//! - hands: `seat:pieces` groups for the seats holding off-board pieces (`[1:KRRJ 2:{H:3}T]`),
//!   `[]` when none;
//! - play list: seat numbers top first, comma-separated (`2,3,1`);
//! - echo sources: per seat `seat:src` comma-separated, `src` a letter, `H:<range>` or `-`;
//!   under the `vector` reading of the Echo each source carries the displacement of the move
//!   it made, signs included: `R+0+5`, `H:2-3+3`;
//! - then, only when the game reads the Echo by vector, a field `echo:vector`.
//!
//! Other fields that follow are ignored. A reading error names its field.

use std::collections::BTreeMap;
use std::fmt;

use crate::games::text_error::{field_err as err, FieldError};

use super::board::{Position, Sq, SIDE};
use super::piece::{EchoRule, Kind, Piece, Src, MAX_HN};

/// A field of the position text.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Field {
    /// The board.
    Placement,
    /// Off-board pieces.
    Hands,
    /// The Play List.
    PlayList,
    /// The Echo sources.
    EchoSources,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Placement => "placement",
            Field::Hands => "hands",
            Field::PlayList => "play list",
            Field::EchoSources => "echo sources",
        })
    }
}

/// A position text that does not read, with the field that is wrong.
pub type TextError = FieldError<Field>;

fn piece_text(p: Piece) -> String {
    match p.kind {
        Kind::HarfyBlob => format!("{{H{}:{}}}", p.seat, p.hn),
        k => format!("{{{}{}}}", k.letter(), p.seat),
    }
}

/// Reads `<letter>` or `<letter>:<n>` (a HarfyBlob's range) with `seat`.
fn read_piece(body: &str, seat: u8, field: Field) -> Result<Piece, TextError> {
    let (main, state) = match body.split_once(':') {
        Some((m, s)) => (m, Some(s)),
        None => (body, None),
    };
    let mut chars = main.chars();
    let Some(c) = chars.next() else {
        return err(field, "an empty piece");
    };
    let Some(kind) = Kind::from_letter(c) else {
        return err(field, format!("{c} is not a piece letter"));
    };
    let mut p = Piece::new(kind, seat);
    if let Some(s) = state {
        if kind != Kind::HarfyBlob {
            return err(field, format!("only a HarfyBlob carries a state ({body})"));
        }
        match s.parse::<u8>() {
            Ok(n) if (1..=20).contains(&n) => p.hn = n.min(20),
            _ => return err(field, format!("a HarfyBlob's range is 1 to 20 ({body})")),
        }
    }
    Ok(p)
}

impl Position {
    /// The placement field.
    pub fn placement(&self) -> String {
        let rows: Vec<String> = (0..SIDE)
            .rev()
            .map(|rank| {
                let squares = (0..SIDE).map(|file| Sq::at(file, rank).and_then(|q| self.at(q)));
                crate::games::fen_rank(squares.map(|p| p.map(piece_text)))
            })
            .collect();
        rows.join("/")
    }

    /// The hands field: `[1:KRRJ 2:{H:3}T]`.
    pub fn hands_text(&self) -> String {
        let groups: Vec<String> = self
            .hands
            .iter()
            .filter(|(_, h)| !h.is_empty())
            .map(|(s, h)| {
                let pieces: String = h.iter().map(|p| p.hand_text()).collect();
                format!("{s}:{pieces}")
            })
            .collect();
        format!("[{}]", groups.join(" "))
    }

    /// The whole position text.
    pub fn to_text(&self) -> String {
        let list: Vec<String> = self.list.iter().map(u8::to_string).collect();
        let echo: Vec<String> = self
            .seats()
            .into_iter()
            .map(|s| format!("{s}:{}", self.echo_of(s).map_or("-".to_string(), Src::text)))
            .collect();
        let mut t = format!(
            "{} {} {} {}",
            self.placement(),
            self.hands_text(),
            list.join(","),
            echo.join(",")
        );
        if self.echo_rule == EchoRule::Vector {
            t.push_str(" echo:vector");
        }
        t
    }

    /// Reads a position text.
    ///
    /// # Errors
    /// A [`TextError`] naming the field that is wrong.
    pub fn from_text(text: &str) -> Result<Position, TextError> {
        let text = text.trim();
        // The hands field has spaces inside its brackets: split around it.
        let (placement, rest) = match text.split_once(' ') {
            Some(x) => x,
            None => return err(Field::Hands, "missing (expected [<seat>:<pieces> …] or [])"),
        };
        let rest = rest.trim_start();
        let Some(after_open) = rest.strip_prefix('[') else {
            return err(Field::Hands, "expected [ … ] after the placement");
        };
        let Some((hands_field, rest)) = after_open.split_once(']') else {
            return err(Field::Hands, "no closing ]");
        };
        let mut fields = rest.split_whitespace();
        let Some(list_text) = fields.next() else {
            return err(
                Field::PlayList,
                "missing (expected seat numbers like 2,3,1)",
            );
        };
        let Some(echo_text) = fields.next() else {
            return err(
                Field::EchoSources,
                "missing (expected seat:src pairs like 1:R,2:-)",
            );
        };
        // Play List.
        let mut list = Vec::new();
        for t in list_text.split(',') {
            match t.parse::<u8>() {
                Ok(n) if n >= 1 => {
                    if list.contains(&n) {
                        return err(Field::PlayList, format!("seat {n} is listed twice"));
                    }
                    list.push(n);
                }
                _ => return err(Field::PlayList, format!("{t} is not a seat number")),
            }
        }
        if list.len() < 2 {
            return err(Field::PlayList, "Party Chess needs at least two Swingers");
        }
        let mut pos = Position::empty(list.clone());
        // Placement.
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != SIDE as usize {
            return err(
                Field::Placement,
                format!("{} ranks instead of 20", rows.len()),
            );
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = SIDE - 1 - i as i32;
            let mut file = 0;
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if c.is_ascii_digit() {
                    let mut n = c.to_digit(10).unwrap_or(0) as i32;
                    while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                        n = n * 10 + d as i32;
                        chars.next();
                    }
                    if n == 0 {
                        return err(Field::Placement, format!("rank {}: a run of 0", rank + 1));
                    }
                    file += n;
                } else if c == '{' {
                    let body: String = chars.by_ref().take_while(|&c| c != '}').collect();
                    let mut b = body.chars();
                    let letter = b.next().unwrap_or(' ');
                    let rest = b.as_str();
                    let (seat_text, state) = match rest.split_once(':') {
                        Some((s, st)) => (s, Some(st)),
                        None => (rest, None),
                    };
                    let Ok(seat) = seat_text.parse::<u8>() else {
                        return err(
                            Field::Placement,
                            format!("rank {}: {{{body}}} has no seat number", rank + 1),
                        );
                    };
                    if !list.contains(&seat) {
                        return err(
                            Field::Placement,
                            format!("rank {}: seat {seat} is not in the play list", rank + 1),
                        );
                    }
                    let piece_body = match state {
                        Some(st) => format!("{letter}:{st}"),
                        None => letter.to_string(),
                    };
                    let p = read_piece(&piece_body, seat, Field::Placement)?;
                    let Some(sq) = Sq::at(file, rank) else {
                        return err(Field::Placement, format!("rank {} is too long", rank + 1));
                    };
                    pos.set(sq, Some(p));
                    file += 1;
                } else if c == '*' {
                    return err(
                        Field::Placement,
                        "every square of the Party Board is part of the board (no *)",
                    );
                } else {
                    return err(
                        Field::Placement,
                        format!(
                            "rank {}: unexpected {c} (pieces are written {{R1}})",
                            rank + 1
                        ),
                    );
                }
                if file > SIDE {
                    return err(Field::Placement, format!("rank {} is too long", rank + 1));
                }
            }
            if file != SIDE {
                return err(
                    Field::Placement,
                    format!("rank {} has {file} squares instead of 20", rank + 1),
                );
            }
        }
        // Hands.
        let mut hands: BTreeMap<u8, Vec<Piece>> = BTreeMap::new();
        for group in hands_field.split_whitespace() {
            let Some((seat_text, pieces)) = group.split_once(':') else {
                return err(Field::Hands, format!("{group}: expected <seat>:<pieces>"));
            };
            let Ok(seat) = seat_text.parse::<u8>() else {
                return err(Field::Hands, format!("{seat_text} is not a seat number"));
            };
            if !list.contains(&seat) {
                return err(Field::Hands, format!("seat {seat} is not in the play list"));
            }
            let mut chars = pieces.chars();
            while let Some(c) = chars.next() {
                let body = if c == '{' {
                    chars.by_ref().take_while(|&c| c != '}').collect::<String>()
                } else {
                    c.to_string()
                };
                let p = read_piece(&body, seat, Field::Hands)?;
                hands.entry(seat).or_default().push(p);
            }
        }
        for (seat, mut h) in hands {
            h.sort();
            if !h.is_empty() {
                pos.hands.insert(seat, h);
            }
        }
        // Echo sources.
        if echo_text != "-" {
            for pair in echo_text.split(',') {
                let Some((seat_text, src)) = pair.split_once(':') else {
                    return err(Field::EchoSources, format!("{pair}: expected <seat>:<src>"));
                };
                let Ok(seat) = seat_text.parse::<u8>() else {
                    return err(
                        Field::EchoSources,
                        format!("{seat_text} is not a seat number"),
                    );
                };
                if !list.contains(&seat) {
                    return err(
                        Field::EchoSources,
                        format!("seat {seat} is not in the play list"),
                    );
                }
                let value = if src == "-" {
                    None
                } else {
                    let (src, vec) = split_vector(src)?;
                    let p = read_piece(src, seat, Field::EchoSources)?;
                    if p.kind == Kind::Echo {
                        return err(
                            Field::EchoSources,
                            "an Echo never moves as an Echo (write what that Echo moved as)",
                        );
                    }
                    Some(Src {
                        vec,
                        ..Src::of(p.kind, p.hn.min(MAX_HN.max(20)))
                    })
                };
                pos.echo.insert(seat, value);
            }
        }
        // Trailing fields: the Echo's reading.
        for f in fields {
            if let Some(word) = f.strip_prefix("echo:") {
                pos.echo_rule = EchoRule::parse(word).map_err(|m| TextError {
                    field: Field::EchoSources,
                    message: m,
                })?;
            }
        }
        pos.check_echo_vectors()?;
        for s in pos.seats() {
            for kind in [Kind::King, Kind::Tornado] {
                if pos.owned(s, kind) > 1 {
                    return err(
                        Field::Placement,
                        format!(
                            "seat {s} owns more than one {} (the limit is one)",
                            kind.name()
                        ),
                    );
                }
            }
        }
        Ok(pos)
    }
}

/// A move's displacement (Δfile, Δrank).
type Vector = (i8, i8);

/// Splits `R+0+5` into `R` and its displacement (none when the text has no sign).
fn split_vector(src: &str) -> Result<(&str, Option<Vector>), TextError> {
    let Some(i) = src
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c == '+' || c == '-')
        .map(|(i, _)| i)
    else {
        return Ok((src, None));
    };
    let (base, v) = src.split_at(i);
    let bad = || TextError {
        field: Field::EchoSources,
        message: format!("{src}: a displacement is written with both signs, like R+0+5"),
    };
    let Some(j) = v
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c == '+' || c == '-')
        .map(|(j, _)| j)
    else {
        return Err(bad());
    };
    let (a, b) = v.split_at(j);
    let num = |t: &str| -> Option<i8> {
        let n: i8 = t.trim_start_matches('+').parse().ok()?;
        (-19..=19).contains(&n).then_some(n)
    };
    match (num(a), num(b)) {
        (Some(x), Some(y)) => Ok((base, Some((x, y)))),
        _ => Err(bad()),
    }
}

impl Position {
    /// Under the `vector` reading every Echo source carries its displacement; under the
    /// rules reading none does.
    ///
    /// # Errors
    /// The first source that does not fit the reading.
    pub fn check_echo_vectors(&self) -> Result<(), TextError> {
        for (seat, src) in &self.echo {
            let Some(src) = src else { continue };
            match (self.echo_rule, src.vec) {
                (EchoRule::Vector, None) => {
                    return err(
                        Field::EchoSources,
                        format!(
                            "seat {seat}: under echo:vector a source carries the displacement of its move (like {seat}:{}+0+5)",
                            src.text()
                        ),
                    )
                }
                (EchoRule::Rules, Some(_)) => {
                    return err(
                        Field::EchoSources,
                        format!(
                            "seat {seat}: {} carries a displacement, which only the echo:vector reading has (add the field echo:vector)",
                            src.text()
                        ),
                    )
                }
                _ => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EMPTY20: &str = "20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20/20";

    #[test]
    fn the_empty_start_round_trips() {
        let t = format!("{EMPTY20} [1:KRRJ 2:{{H:3}}T] 2,1 1:-,2:-");
        let p = Position::from_text(&t).expect("reads");
        assert_eq!(p.to_text(), t);
        assert_eq!(p.hand(2)[0].hn, 3);
        assert_eq!(p.to_play(), Some(2));
    }

    #[test]
    fn pieces_and_states_round_trip() {
        let mut rows: Vec<String> = vec!["20".into(); 20];
        rows[0] = "{K1}18{!2}".into();
        rows[10] = "3{H2:4}{%1}15".into();
        rows[19] = "{H1}19".into();
        let t = format!("{} [] 1,2,3 1:H:2,2:R,3:-", rows.join("/"));
        let p = Position::from_text(&t).expect("reads");
        // A bare H is range 1 and is written with it.
        assert!(p.to_text().contains("{H1:1}19"), "{}", p.to_text());
        let again = Position::from_text(&p.to_text()).expect("reads");
        assert_eq!(again, p);
        assert_eq!(p.echo_of(1).map(Src::text), Some("H:2".into()));
    }

    #[test]
    fn the_vector_reading_round_trips_with_its_displacements() {
        let t = format!("{EMPTY20} [] 1,2 1:R+0+5,2:H:2-3+3 echo:vector");
        let p = Position::from_text(&t).expect("reads");
        assert_eq!(p.echo_rule, EchoRule::Vector);
        assert_eq!(p.echo_of(1).and_then(|s| s.vec), Some((0, 5)));
        assert_eq!(
            p.echo_of(2).map(|s| (s.hn, s.vec)),
            Some((2, Some((-3, 3))))
        );
        assert_eq!(p.to_text(), t);
        // Each reading refuses the other's sources.
        let e = |t: &str| Position::from_text(t).unwrap_err().field;
        assert_eq!(
            e(&format!("{EMPTY20} [] 1,2 1:R,2:- echo:vector")),
            Field::EchoSources
        );
        assert_eq!(
            e(&format!("{EMPTY20} [] 1,2 1:R+0+5,2:-")),
            Field::EchoSources
        );
        assert_eq!(
            e(&format!("{EMPTY20} [] 1,2 1:R+0,2:- echo:vector")),
            Field::EchoSources
        );
        assert_eq!(
            e(&format!("{EMPTY20} [] 1,2 1:-,2:- echo:sideways")),
            Field::EchoSources
        );
        // The rules reading writes no field of its own.
        let t = format!("{EMPTY20} [] 1,2 1:R,2:-");
        assert_eq!(Position::from_text(&t).expect("reads").to_text(), t);
    }

    #[test]
    fn errors_name_the_field() {
        let e = |t: &str| Position::from_text(t).unwrap_err().field;
        assert_eq!(e(&format!("{EMPTY20} [] 1 1:-")), Field::PlayList);
        assert_eq!(e(&format!("{EMPTY20} [3:R] 1,2 1:-,2:-")), Field::Hands);
        assert_eq!(e(&format!("{EMPTY20} [1:X] 1,2 1:-,2:-")), Field::Hands);
        assert_eq!(e(&format!("{EMPTY20} [] 1,2 1:E")), Field::EchoSources);
        assert_eq!(e(&format!("{EMPTY20} []")), Field::PlayList);
        assert_eq!(e(&format!("{EMPTY20}/20 [] 1,2 -")), Field::Placement);
        assert_eq!(
            e(&format!("{} [] 1,2 -", EMPTY20.replacen("20", "19{R3}", 1))),
            Field::Placement
        );
        assert_eq!(e(&format!("{EMPTY20} [1:KK] 1,2 -")), Field::Placement);
    }
}
