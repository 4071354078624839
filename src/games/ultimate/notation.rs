//! Moves as players write them (shared rules 0.1): `Wd1-f3`, `e2-e5`, `c15-c16=M`, `Qi1xc7`,
//! `0-0`, `0-0-0`. The text is read by the engine's [`parse_text`]; this module finds the
//! legal move it names in an Ultimate position, or says what would work.

use std::collections::BTreeSet;

use crate::engine::notation::{parse_text, MoveText, NotationError};
use crate::engine::Square;

use super::board::{parse_square, square_name, CastleSide, Kind};
use super::position::{Move, Position};

/// Formats a move (no check mark).
pub fn format(pos: &Position, m: Move) -> String {
    match m.castle {
        Some(CastleSide::King) => return "0-0".into(),
        Some(CastleSide::Queen) => return "0-0-0".into(),
        None => {}
    }
    let mut s = String::with_capacity(12);
    if let Some(p) = pos.piece_at(m.from) {
        if p.kind != Kind::Pawn {
            s.push(p.kind.letter());
        }
    }
    s.push_str(&square_name(m.from));
    s.push(if pos.piece_at(m.to).is_some() {
        'x'
    } else {
        '-'
    });
    s.push_str(&square_name(m.to));
    if let Some(k) = m.promotion {
        s.push('=');
        s.push(k.letter());
    }
    s
}

/// Formats a move with `+` when it gives check.
pub fn format_with_check(pos: &mut Position, m: Move) -> String {
    let mut s = format(pos, m);
    if pos.gives_check(m) {
        s.push('+');
    }
    s
}

/// Every legal move of the seat to move, formatted and sorted.
pub fn legal_texts(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| format(pos, m))
        .collect();
    v.sort();
    v
}

fn sq(text: &str) -> Result<Square, NotationError> {
    parse_square(text).ok_or_else(|| NotationError::OffBoard(text.to_string()))
}

fn sorted(pos: &Position, moves: impl Iterator<Item = Move>) -> Vec<String> {
    moves
        .map(|m| format(pos, m))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Finds the legal move of the seat to move that `text` names.
///
/// # Errors
/// A [`NotationError`] saying what is wrong and what would work (the piece's legal moves, or
/// the moves that reach the square).
pub fn resolve(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let legal = pos.legal_moves();
    resolve_in(pos, text, &legal)
}

/// Like [`resolve`], against a list of legal moves.
///
/// # Errors
/// As [`resolve`].
pub fn resolve_in(pos: &Position, text: &str, legal: &[Move]) -> Result<Move, NotationError> {
    let clean = text
        .trim()
        .trim_end_matches(['+', '#', '!', '?'])
        .to_string();
    let me = pos.turn();
    let plays =
        |p: Option<super::board::Piece>| p.is_some_and(|p| pos.controller(p.seat) == Some(me));
    match parse_text(text)? {
        MoveText::Drop { .. } => Err(NotationError::Illegal {
            text: clean,
            reason: "there are no drops in Ultimate Chess; write a move like e2-e5 or Wd1-f3"
                .into(),
        }),
        MoveText::Castle { long } => {
            let want = if long {
                CastleSide::Queen
            } else {
                CastleSide::King
            };
            legal
                .iter()
                .copied()
                .find(|m| m.castle == Some(want))
                .ok_or_else(|| {
                    let (k, q) = pos.castling(me);
                    let right = if long { q } else { k };
                    let reason = if right {
                        "castling that way is not possible now (the squares between King and rook must be empty, and the King may not be in check, cross or land on an attacked square, or end attacked)"
                    } else {
                        "you have lost that castling right (the King or that rook has moved, or the rook was captured)"
                    };
                    NotationError::Illegal {
                        text: clean.clone(),
                        reason: reason.into(),
                    }
                })
        }
        MoveText::Move {
            piece,
            from,
            to,
            promotion,
            ..
        } => {
            let from_sq = sq(&from)?;
            let to_sq = sq(&to)?;
            let here = pos.piece_at(from_sq);
            let reaching = || {
                sorted(
                    pos,
                    legal
                        .iter()
                        .copied()
                        .filter(|m| m.to == to_sq && m.castle.is_none()),
                )
            };
            if !plays(here) {
                let mut detail = match here {
                    Some(p) => format!(" ({from} holds {}'s {})", p.seat.name(), p.kind.name()),
                    None => format!(" ({from} is empty)"),
                };
                let r = reaching();
                if !r.is_empty() {
                    detail.push_str(&format!("; moves to {to}: {}", r.join(" ")));
                }
                return Err(NotationError::NoPiece {
                    square: from,
                    detail,
                });
            }
            let Some(p) = here else {
                return Err(NotationError::NoPiece {
                    square: from,
                    detail: String::new(),
                });
            };
            if !piece.is_empty() {
                let named = one_letter(&piece)?;
                if named != p.kind {
                    let prefix = if p.kind == Kind::Pawn {
                        String::new()
                    } else {
                        p.kind.letter().to_string()
                    };
                    if legal.iter().any(|m| m.from == from_sq && m.to == to_sq) {
                        return Err(NotationError::WrongPiece {
                            square: from.clone(),
                            named: piece,
                            actual: p.kind.name().into(),
                            suggestion: format!("{prefix}{from}-{to}"),
                        });
                    }
                    let r = reaching();
                    let reason = if r.is_empty() {
                        format!(
                            "{from} holds a {}, not {piece}, and nothing you play can move to {to}",
                            p.kind.name()
                        )
                    } else {
                        format!(
                            "{from} holds a {}, not {piece}; moves to {to}: {}",
                            p.kind.name(),
                            r.join(" ")
                        )
                    };
                    return Err(NotationError::Illegal {
                        text: clean,
                        reason,
                    });
                }
            }
            let promo = match &promotion {
                Some(t) => Some(one_letter(t)?),
                None => None,
            };
            let mut found: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| m.from == from_sq && m.to == to_sq && m.castle.is_none())
                .collect();
            if found.is_empty() {
                // Castling written as the King's two-square move.
                found = legal
                    .iter()
                    .copied()
                    .filter(|m| m.castle.is_some() && m.from == from_sq && m.to == to_sq)
                    .collect();
            }
            if found.is_empty() {
                let targets = sorted(pos, legal.iter().copied().filter(|m| m.from == from_sq));
                let reason = if targets.is_empty() {
                    format!("your {} on {from} has no legal move now", p.kind.name())
                } else {
                    format!(
                        "your {} on {from} can play: {}",
                        p.kind.name(),
                        targets.join(" ")
                    )
                };
                return Err(NotationError::Illegal {
                    text: clean,
                    reason,
                });
            }
            let promoting = found.iter().any(|m| m.promotion.is_some());
            match (promoting, promo) {
                (false, None) => Ok(found[0]),
                (false, Some(_)) => Err(NotationError::Illegal {
                    text: clean,
                    reason: format!("a pawn promotes only on its far row; write {from}-{to}"),
                }),
                (true, None) => Err(NotationError::NeedPromotion {
                    choices: sorted(pos, found.into_iter()),
                }),
                (true, Some(k)) => found
                    .iter()
                    .copied()
                    .find(|m| m.promotion == Some(k))
                    .ok_or_else(|| NotationError::Illegal {
                        text: clean,
                        reason: format!(
                            "a pawn promotes to Q, R, B, N, W or M; write one of {}",
                            sorted(pos, found.iter().copied()).join(", ")
                        ),
                    }),
            }
        }
    }
}

/// One piece letter, any case (`W`, `w`).
fn one_letter(text: &str) -> Result<Kind, NotationError> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Kind::from_letter(c.to_ascii_uppercase())
            .ok_or_else(|| NotationError::UnknownPiece(text.to_string())),
        _ => Err(NotationError::UnknownPiece(text.to_string())),
    }
}
