//! The Chex position text (Chex rules 5.9 as pinned by issue 18):
//! `<placement> [<stacks>] <w|b> <origin> <revealed>`, read and written.

use std::collections::BTreeMap;
use std::fmt;

use crate::games::text_error::{field_err as err, FieldError};

use super::position::{Abs, Kind, Piece, Position, Side};

/// A field of the position text.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Field {
    /// The board.
    Placement,
    /// The stacks.
    Stacks,
    /// The side to move.
    SideToMove,
    /// The shown `a1`'s absolute square.
    Origin,
    /// The revealed piece.
    Revealed,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Placement => "placement",
            Field::Stacks => "stacks",
            Field::SideToMove => "side to move",
            Field::Origin => "origin",
            Field::Revealed => "revealed",
        })
    }
}

/// A position text that does not read, with the field that is wrong.
pub type TextError = FieldError<Field>;

/// The placement's rows, top first, as pieces by (file, rank from the bottom).
/// Pieces by (file, rank from the bottom), with the board's width and height.
type Placement = (BTreeMap<(i32, i32), Piece>, usize, usize);

fn read_placement(text: &str) -> Result<Placement, TextError> {
    let rows: Vec<&str> = text.split('/').collect();
    let height = rows.len();
    let mut width = None;
    let mut out = BTreeMap::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = (height - 1 - i) as i32;
        let mut file = 0usize;
        let mut digits = String::new();
        let flush = |digits: &mut String, file: &mut usize| -> Result<(), TextError> {
            if !digits.is_empty() {
                let n: usize = digits.parse().map_err(|_| TextError {
                    field: Field::Placement,
                    message: format!("bad run of empty squares `{digits}`"),
                })?;
                if n == 0 {
                    return err(Field::Placement, "a run of empty squares cannot be 0");
                }
                *file += n;
                digits.clear();
            }
            Ok(())
        };
        for c in row.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            flush(&mut digits, &mut file)?;
            if c == '*' {
                return err(
                    Field::Placement,
                    "a Chex board is a rectangle: every square is part of it (no `*`)",
                );
            }
            let Some(kind) = Kind::from_either_case(c) else {
                return err(
                    Field::Placement,
                    format!("`{c}` is not a Chex piece (K Q R B N P, lower case for Black)"),
                );
            };
            let side = if c.is_ascii_uppercase() {
                Side::White
            } else {
                Side::Black
            };
            out.insert((file as i32, rank), Piece { side, kind });
            file += 1;
        }
        flush(&mut digits, &mut file)?;
        match width {
            None => width = Some(file),
            Some(w) if w != file => {
                return err(
                    Field::Placement,
                    format!(
                        "rank {} has {file} squares but the top rank has {w}",
                        rank + 1
                    ),
                )
            }
            _ => {}
        }
    }
    let width = width.unwrap_or(0);
    if width == 0 {
        return err(Field::Placement, "the board has no squares");
    }
    if width > 26 || height > 26 {
        return err(
            Field::Placement,
            format!("the board is {width}×{height}; the limit is 26×26"),
        );
    }
    Ok((out, width, height))
}

fn read_stack(text: &str, side: Side) -> Result<Vec<Kind>, TextError> {
    let mut v = Vec::new();
    for c in text.chars() {
        let Some(k) = Kind::from_either_case(c) else {
            return err(Field::Stacks, format!("`{c}` is not a piece letter"));
        };
        let right_case = match side {
            Side::White => c.is_ascii_uppercase(),
            Side::Black => c.is_ascii_lowercase(),
        };
        if !right_case {
            return err(
                Field::Stacks,
                "White's stack comes first in upper case, then a space, then Black's in lower case",
            );
        }
        v.push(k);
    }
    v.sort();
    Ok(v)
}

impl Position {
    /// Reads a position text.
    ///
    /// # Errors
    /// A [`TextError`] naming the field that is wrong.
    pub fn from_text(text: &str) -> Result<Position, TextError> {
        let text = text.trim();
        let Some((placement, rest)) = text.split_once(' ') else {
            return err(
                Field::Stacks,
                "missing (write `[<White's> <Black's>]` after the board)",
            );
        };
        let rest = rest.trim_start();
        let Some(inner) = rest.strip_prefix('[') else {
            return err(Field::Stacks, "must start with `[`");
        };
        let Some((stacks, after)) = inner.split_once(']') else {
            return err(Field::Stacks, "missing `]`");
        };
        let Some((white, black)) = stacks.split_once(' ') else {
            return err(
                Field::Stacks,
                "White's and Black's pieces are separated by one space (`[ ]` when both are empty)",
            );
        };
        if black.contains(' ') {
            return err(
                Field::Stacks,
                "one space only, between White's and Black's pieces",
            );
        }
        let stacks = [
            read_stack(white, Side::White)?,
            read_stack(black, Side::Black)?,
        ];
        let fields: Vec<&str> = after.split_whitespace().collect();
        let Some(side) = fields.first() else {
            return err(Field::SideToMove, "missing (w or b)");
        };
        let to_move = match *side {
            "w" => Side::White,
            "b" => Side::Black,
            other => return err(Field::SideToMove, format!("`{other}` is not w or b")),
        };
        let Some(origin) = fields.get(1) else {
            return err(
                Field::Origin,
                "missing (the absolute square of a1, like 0,0 or -1,-2)",
            );
        };
        let parse_origin = || -> Option<Abs> {
            let (x, y) = origin.split_once(',')?;
            Some((x.parse().ok()?, y.parse().ok()?))
        };
        let Some(origin) = parse_origin() else {
            return err(Field::Origin, format!("`{origin}` is not x,y (like -1,-1)"));
        };
        let Some(revealed) = fields.get(2) else {
            return err(Field::Revealed, "missing (the drawn piece's letter, or -)");
        };
        let revealed = match *revealed {
            "-" => None,
            r => {
                let mut cs = r.chars();
                let (Some(c), None) = (cs.next(), cs.next()) else {
                    return err(Field::Revealed, format!("`{r}` is not one letter or -"));
                };
                let Some(k) = Kind::from_either_case(c) else {
                    return err(Field::Revealed, format!("`{c}` is not a piece letter"));
                };
                let white = c.is_ascii_uppercase();
                if white != (to_move == Side::White) {
                    return err(
                        Field::Revealed,
                        "the revealed piece belongs to the side to move (upper case for White, lower case for Black)",
                    );
                }
                Some(k)
            }
        };
        let (local, _, _) = read_placement(placement)?;
        let board: BTreeMap<Abs, Piece> = local
            .into_iter()
            .map(|((f, r), p)| ((origin.0 + f, origin.1 + r), p))
            .collect();
        for side in Side::BOTH {
            for k in Kind::ALL {
                let on = board
                    .values()
                    .filter(|p| p.side == side && p.kind == k)
                    .count();
                let held = stacks[side.index()].iter().filter(|&&s| s == k).count();
                let shown = usize::from(revealed == Some(k) && to_move == side);
                if on + held + shown > k.count() {
                    let field = if held > 0 {
                        Field::Stacks
                    } else {
                        Field::Placement
                    };
                    return err(
                        field,
                        format!(
                            "{} has {} {}s in all; there are only {}",
                            side.name(),
                            on + held + shown,
                            k.name(),
                            k.count()
                        ),
                    );
                }
            }
        }
        if !super::position::connected(board.keys()) {
            return err(
                Field::Placement,
                "the pieces in play must form one group of 8-neighbours",
            );
        }
        let empty_origin = if board.is_empty() { origin } else { (0, 0) };
        Ok(Position::from_parts(
            board,
            stacks,
            to_move,
            revealed,
            empty_origin,
        ))
    }
}
