//! The position text (Ultimate rules 4.8 and the pinned interface of issue 17):
//! `<placement> <seat to move> <castling> <defeated> <mode> <controllers>`.
//!
//! - placement: ranks 16 down to 1 separated by `/`, each of 16 columns: `*` for a cut
//!   square, a run of empty squares as its length in digits, a piece as `{<letter><seat>}`
//!   (`{K1}`, `{W3}`);
//! - seat to move: `1`–`4` (Silver, Red, Black, Green);
//! - castling: per seat the rights left, `1:KQ,2:K,3:-,4:Q` (`K` = `0-0`, `Q` = `0-0-0`);
//! - defeated: seat numbers comma-separated, or `-`;
//! - mode: `standard`, `conquest` or `devastation`;
//! - controllers: `d>v` pairs comma-separated (`3>1,4>1`), or `-`.
//!
//! More fields may follow; they are ignored. A reading error names its field.

use std::fmt;

use crate::games::text_error::{field_err as err, FieldError};

use crate::engine::Coord;

use super::board::{
    cell, cell_kind, cell_seat, geometry, tables, Kind, Seat, EMPTY, KING, NOBODY, ROOK, SIDE,
};
use super::position::{Mode, Position};

/// A field of the position text.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Field {
    /// The board.
    Placement,
    /// Whose turn it is.
    SeatToMove,
    /// Castling rights.
    Castling,
    /// Defeated seats.
    Defeated,
    /// The mode.
    Mode,
    /// Who plays defeated seats' pieces.
    Controllers,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Placement => "placement",
            Field::SeatToMove => "seat to move",
            Field::Castling => "castling",
            Field::Defeated => "defeated",
            Field::Mode => "mode",
            Field::Controllers => "controllers",
        })
    }
}

/// A position text that does not read, with the field that is wrong.
pub type TextError = FieldError<Field>;

impl Position {
    /// The placement field.
    pub fn placement(&self) -> String {
        let g = geometry();
        let mut out = String::with_capacity(400);
        for rank in (0..SIDE).rev() {
            let mut empty = 0;
            for file in 0..SIDE {
                let Some(sq) = g.square(Coord::new(file, rank)) else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push('*');
                    continue;
                };
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push('{');
                        out.push(p.kind.letter());
                        out.push((b'0' + p.seat.number()) as char);
                        out.push('}');
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// The castling field.
    pub fn castling_text(&self) -> String {
        Seat::ALL
            .iter()
            .map(|&s| {
                let (k, q) = self.castling(s);
                let r = match (k, q) {
                    (true, true) => "KQ",
                    (true, false) => "K",
                    (false, true) => "Q",
                    (false, false) => "-",
                };
                format!("{}:{r}", s.number())
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The defeated field.
    pub fn defeated_text(&self) -> String {
        let d = self.defeated();
        if d.is_empty() {
            "-".into()
        } else {
            d.iter()
                .map(|s| s.number().to_string())
                .collect::<Vec<_>>()
                .join(",")
        }
    }

    /// The controllers field: each defeated seat whose pieces another player plays.
    pub fn controllers_text(&self) -> String {
        let pairs: Vec<String> = Seat::ALL
            .iter()
            .filter(|&&s| self.is_defeated(s))
            .filter_map(|&s| {
                self.controller(s)
                    .map(|v| format!("{}>{}", s.number(), v.number()))
            })
            .collect();
        crate::games::export_common::listed(&pairs, ",")
    }

    /// The whole position text.
    pub fn to_text(&self) -> String {
        format!(
            "{} {} {} {} {} {}",
            self.placement(),
            self.turn().number(),
            self.castling_text(),
            self.defeated_text(),
            self.mode().as_str(),
            self.controllers_text()
        )
    }

    /// Reads a position text.
    ///
    /// # Errors
    /// A [`TextError`] naming the field that is wrong.
    pub fn from_text(text: &str) -> Result<Position, TextError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let names = [
            Field::Placement,
            Field::SeatToMove,
            Field::Castling,
            Field::Defeated,
            Field::Mode,
            Field::Controllers,
        ];
        if fields.len() < names.len() {
            let missing = names[fields.len()];
            return err(
                missing,
                format!(
                    "missing (a position text has six fields: placement, seat to move, castling, defeated, mode, controllers; found {})",
                    fields.len()
                ),
            );
        }
        let mode = Mode::parse(fields[4]).map_or_else(
            || {
                err(
                    Field::Mode,
                    format!(
                        "`{}` is not a mode (standard, conquest or devastation)",
                        fields[4]
                    ),
                )
            },
            Ok,
        )?;
        let mut pos = Position::empty(mode);
        read_placement(&mut pos, fields[0])?;
        let turn = fields[1]
            .parse::<u8>()
            .ok()
            .and_then(Seat::from_number)
            .map_or_else(
                || {
                    err(
                        Field::SeatToMove,
                        format!(
                            "`{}` is not a seat (1 Silver, 2 Red, 3 Black, 4 Green)",
                            fields[1]
                        ),
                    )
                },
                Ok,
            )?;
        pos.turn = turn;
        pos.defeated = read_defeated(fields[3])?;
        if pos.is_defeated(turn) {
            return err(
                Field::SeatToMove,
                format!("seat {} is defeated and cannot be to move", turn.number()),
            );
        }
        read_controllers(&mut pos, fields[5])?;
        check_pieces(&pos)?;
        pos.castling = read_castling(&pos, fields[2])?;
        Ok(pos)
    }
}

fn read_placement(pos: &mut Position, text: &str) -> Result<(), TextError> {
    let g = geometry();
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != SIDE as usize {
        return err(
            Field::Placement,
            format!("{} ranks separated by `/`, not {}", SIDE, rows.len()),
        );
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = SIDE - 1 - i as u8;
        let rank_name = rank + 1;
        let mut file: u32 = 0;
        let chars: Vec<char> = row.chars().collect();
        let mut j = 0;
        while j < chars.len() {
            let c = chars[j];
            if c.is_ascii_digit() {
                let start = j;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    j += 1;
                }
                let run: String = chars[start..j].iter().collect();
                let n: u32 = run.parse().unwrap_or(0);
                if n == 0 {
                    return err(
                        Field::Placement,
                        format!("rank {rank_name}: `{run}` is not a run of empty squares"),
                    );
                }
                file += n;
                continue;
            }
            if file >= SIDE as u32 {
                return err(
                    Field::Placement,
                    format!("rank {rank_name} has more than {SIDE} squares"),
                );
            }
            let at = Coord::new(file as u8, rank);
            let sq = g.square(at);
            let square_name = format!("{}{}", (b'a' + file as u8) as char, rank_name);
            match c {
                '*' => {
                    if sq.is_some() {
                        return err(
                            Field::Placement,
                            format!("`*` on {square_name}, which is a square of the board (only the 2×2 corners are cut)"),
                        );
                    }
                    file += 1;
                    j += 1;
                }
                '{' => {
                    let close = chars[j..].iter().position(|&x| x == '}').map(|p| p + j);
                    let Some(close) = close else {
                        return err(
                            Field::Placement,
                            format!("rank {rank_name}: `{{` without `}}`"),
                        );
                    };
                    let inner: String = chars[j + 1..close].iter().collect();
                    let mut ic = inner.chars();
                    let kind = ic.next().and_then(Kind::from_letter);
                    let seat = ic.as_str().parse::<u8>().ok().and_then(Seat::from_number);
                    let (Some(kind), Some(seat)) = (kind, seat) else {
                        return err(
                            Field::Placement,
                            format!("`{{{inner}}}` is not a piece (a letter K Q R B N W M P and a seat 1–4, like {{K1}} or {{W3}})"),
                        );
                    };
                    let Some(sq) = sq else {
                        return err(
                            Field::Placement,
                            format!("{square_name} is a cut corner, not a square (write `*`)"),
                        );
                    };
                    pos.board[sq.index()] = cell(seat.index(), kind.index());
                    if kind == Kind::King {
                        pos.kings[seat.index()] = sq;
                    }
                    file += 1;
                    j = close + 1;
                }
                other => {
                    return err(
                        Field::Placement,
                        format!("rank {rank_name}: unexpected `{other}` (pieces are written like {{K1}}, empty squares as a count, cut corners as *)"),
                    );
                }
            }
        }
        if file != SIDE as u32 {
            return err(
                Field::Placement,
                format!("rank {rank_name} has {file} squares, not {SIDE}"),
            );
        }
    }
    Ok(())
}

fn read_seat_list(field: Field, text: &str) -> Result<u8, TextError> {
    if text == "-" {
        return Ok(0);
    }
    let mut mask = 0u8;
    for part in text.split(',') {
        let Some(s) = part.parse::<u8>().ok().and_then(Seat::from_number) else {
            return err(
                field,
                format!("`{part}` is not a seat number 1–4 (write seats comma-separated, or -)"),
            );
        };
        if mask & (1 << s.index()) != 0 {
            return err(field, format!("seat {} is listed twice", s.number()));
        }
        mask |= 1 << s.index();
    }
    Ok(mask)
}

fn read_defeated(text: &str) -> Result<u8, TextError> {
    let mask = read_seat_list(Field::Defeated, text)?;
    if mask.count_ones() > 3 {
        return err(Field::Defeated, "at most three seats can be defeated");
    }
    Ok(mask)
}

fn read_controllers(pos: &mut Position, text: &str) -> Result<(), TextError> {
    // Defeated seats' pieces: nobody's until a pair names a controller.
    for s in 0..4 {
        pos.controller[s] = if pos.defeated & (1 << s) != 0 {
            NOBODY
        } else {
            s as u8
        };
    }
    if text == "-" {
        return Ok(());
    }
    if pos.mode != Mode::Devastation {
        return err(
            Field::Controllers,
            format!(
                "only devastation has controllers; in {} write -",
                pos.mode.as_str()
            ),
        );
    }
    for part in text.split(',') {
        let pair = part.split_once('>').and_then(|(d, v)| {
            Some((
                d.parse::<u8>().ok().and_then(Seat::from_number)?,
                v.parse::<u8>().ok().and_then(Seat::from_number)?,
            ))
        });
        let Some((d, v)) = pair else {
            return err(
                Field::Controllers,
                format!("`{part}` is not a pair d>v of seats 1–4 (like 3>1)"),
            );
        };
        if !pos.is_defeated(d) {
            return err(
                Field::Controllers,
                format!(
                    "seat {} is not defeated; its pieces are its own",
                    d.number()
                ),
            );
        }
        if pos.is_defeated(v) {
            return err(
                Field::Controllers,
                format!("seat {} is defeated and controls nothing", v.number()),
            );
        }
        if pos.controller[d.index()] != NOBODY {
            return err(
                Field::Controllers,
                format!("seat {} is given two controllers", d.number()),
            );
        }
        pos.controller[d.index()] = v.index() as u8;
    }
    Ok(())
}

/// Kings and the pieces of defeated seats agree with the defeated field, mode and
/// controllers.
fn check_pieces(pos: &Position) -> Result<(), TextError> {
    let mut kings = [0u8; 4];
    let mut pieces = [0u32; 4];
    for &sq in &tables().squares {
        let c = pos.board[sq.index()];
        if c == EMPTY {
            continue;
        }
        pieces[cell_seat(c)] += 1;
        if cell_kind(c) == KING {
            kings[cell_seat(c)] += 1;
        }
    }
    for seat in Seat::ALL {
        let s = seat.index();
        let n = seat.number();
        if !pos.is_defeated(seat) {
            if kings[s] != 1 {
                return err(
                    Field::Placement,
                    format!(
                        "seat {n} is in the game and must have exactly one King, not {}",
                        kings[s]
                    ),
                );
            }
            continue;
        }
        match pos.mode {
            Mode::Standard if pieces[s] > 0 => {
                return err(
                    Field::Placement,
                    format!(
                        "seat {n} is defeated; in standard mode its pieces have left the board"
                    ),
                );
            }
            Mode::Devastation if kings[s] > 0 => {
                return err(
                    Field::Placement,
                    format!("seat {n} is defeated; in devastation its King has left the board"),
                );
            }
            Mode::Devastation if pieces[s] > 0 && pos.controller[s] == NOBODY => {
                return err(
                    Field::Controllers,
                    format!("seat {n} is defeated and has pieces on the board: say who plays them (like {n}>1)"),
                );
            }
            Mode::Conquest if kings[s] > 1 => {
                return err(Field::Placement, format!("seat {n} has {} Kings", kings[s]));
            }
            _ => {}
        }
    }
    Ok(())
}

fn read_castling(pos: &Position, text: &str) -> Result<u8, TextError> {
    if text == "-" {
        return Ok(0);
    }
    let t = tables();
    let mut rights = 0u8;
    let mut seen = 0u8;
    for part in text.split(',') {
        let parsed = part
            .split_once(':')
            .and_then(|(s, r)| Some((s.parse::<u8>().ok().and_then(Seat::from_number)?, r)));
        let Some((seat, r)) = parsed else {
            return err(
                Field::Castling,
                format!("`{part}` is not seat:rights (like 1:KQ, 2:K or 3:-)"),
            );
        };
        let s = seat.index();
        if seen & (1 << s) != 0 {
            return err(
                Field::Castling,
                format!("seat {} is listed twice", seat.number()),
            );
        }
        seen |= 1 << s;
        if r == "-" {
            continue;
        }
        if r.is_empty() {
            return err(
                Field::Castling,
                format!("seat {}: no rights given (write - for none)", seat.number()),
            );
        }
        for ch in r.chars() {
            let side = match ch {
                'K' => 0,
                'Q' => 1,
                _ => {
                    return err(
                        Field::Castling,
                        format!(
                            "`{ch}` is not a castling right (K for 0-0, Q for 0-0-0, - for none)"
                        ),
                    )
                }
            };
            let bit = 1u8 << (2 * s + side);
            if rights & bit != 0 {
                return err(
                    Field::Castling,
                    format!("seat {}: `{ch}` is given twice", seat.number()),
                );
            }
            if pos.is_defeated(seat) {
                return err(
                    Field::Castling,
                    format!(
                        "seat {} is defeated and has no castling rights",
                        seat.number()
                    ),
                );
            }
            let d = &t.castle[s][side];
            let name = super::board::square_name;
            if pos.board[d.king_from.index()] != cell(s, KING) {
                return err(
                    Field::Castling,
                    format!(
                        "seat {} has {ch} but its King is not on {}",
                        seat.number(),
                        name(d.king_from)
                    ),
                );
            }
            if pos.board[d.rook_from.index()] != cell(s, ROOK) {
                return err(
                    Field::Castling,
                    format!(
                        "seat {} has {ch} but no rook of its own on {}",
                        seat.number(),
                        name(d.rook_from)
                    ),
                );
            }
            rights |= bit;
        }
    }
    Ok(rights)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "**{M3}{W3}{R3}{N3}{B3}{K3}{Q3}{B3}{N3}{R3}{W3}{M3}**/**{P3}{P3}{P3}{P3}{P3}{P3}{P3}{P3}{P3}{P3}{P3}{P3}**/{M2}{P2}12{P4}{M4}/{W2}{P2}12{P4}{W4}/{R2}{P2}12{P4}{R4}/{N2}{P2}12{P4}{N4}/{B2}{P2}12{P4}{B4}/{Q2}{P2}12{P4}{Q4}/{K2}{P2}12{P4}{K4}/{B2}{P2}12{P4}{B4}/{N2}{P2}12{P4}{N4}/{R2}{P2}12{P4}{R4}/{W2}{P2}12{P4}{W4}/{M2}{P2}12{P4}{M4}/**{P1}{P1}{P1}{P1}{P1}{P1}{P1}{P1}{P1}{P1}{P1}{P1}**/**{M1}{W1}{R1}{N1}{B1}{K1}{Q1}{B1}{N1}{R1}{W1}{M1}** 1 1:KQ,2:KQ,3:KQ,4:KQ - standard -";

    #[test]
    fn the_start_position_text() {
        assert_eq!(Position::start(Mode::Standard).to_text(), START);
        assert_eq!(
            Position::from_text(START).unwrap(),
            Position::start(Mode::Standard)
        );
    }

    #[test]
    fn lenient_forms_read() {
        let kings = "7{K3}8/16/16/16/16/16/16/16/{K2}14{K4}/16/16/16/16/16/16/7{K1}8";
        // Runs may cover cut corners; castling `-` for all; more fields may follow.
        let p = Position::from_text(&format!("{kings} 1 - - standard - 0 extra")).unwrap();
        let q = Position::from_text(
            "**12**/**12**/16/16/16/16/16/{K2}14{K4}/16/16/16/16/16/16/**12**/**5{K1}6** 1 4:-,1:- - standard -",
        )
        .unwrap_err();
        // Black's King is missing in the second text.
        assert_eq!(q.field, Field::Placement);
        assert!(p.to_text().contains(" 1 1:-,2:-,3:-,4:- - standard -"));
    }

    #[test]
    fn errors_name_their_field() {
        let bad = [
            ("*16/16", Field::Placement),
            (
                "16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/17",
                Field::Placement,
            ),
            ("{K1}", Field::Placement),
        ];
        for (text, field) in bad {
            let e = Position::from_text(&format!("{text} 1 - - standard -")).unwrap_err();
            assert_eq!(e.field, field, "{e}");
        }
        let cut = START.replacen("**{M3}", "{P1}*{M3}", 1);
        assert_eq!(
            Position::from_text(&cut).unwrap_err().field,
            Field::Placement
        );
        let star = START.replacen("{M2}{P2}12", "{M2}{P2}*11", 1);
        assert_eq!(
            Position::from_text(&star).unwrap_err().field,
            Field::Placement
        );
        let twice = START.replace("1:KQ,2:KQ", "1:KQ,1:KQ");
        assert_eq!(
            Position::from_text(&twice).unwrap_err().field,
            Field::Castling
        );
        let defeated = START.replace(" - standard -", " 2,2 conquest -");
        assert_eq!(
            Position::from_text(&defeated).unwrap_err().field,
            Field::Defeated
        );
        let ctrl = START.replace(" - standard -", " 2 devastation 2>2");
        assert_eq!(
            Position::from_text(&ctrl).unwrap_err().field,
            Field::Controllers
        );
    }
}
