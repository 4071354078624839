//! Long algebraic notation (shared rules 0.1): `Nb1-c3`, `d4xe5`, `N@f3`, `e7-e8=Q`, `0-0`, and
//! `P@g6(nutty)` for a pawn drop that names the army the pawn comes from (KFB rules 1.3).
//!
//! Parsing happens in two steps: [`parse_text`] reads the text without a position
//! ([`MoveText`]); [`resolve`] finds the legal move it names in a position, or says precisely
//! why there is none.

use std::fmt;

use super::geometry::{split_square, Square};
use super::piece::{ArmyId, Kind};
use super::position::{Move, Position};
use super::rules::Side;

/// A move as written, before it is matched against a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveText {
    /// `0-0` (short) or `0-0-0` (long).
    Castle {
        /// `0-0-0`.
        long: bool,
    },
    /// `N@f3`, `P@g6(nutty)`.
    Drop {
        /// Piece abbreviation as typed (empty for a pawn).
        piece: String,
        /// Square as typed.
        to: String,
        /// Army named in brackets after the square, as typed.
        army: Option<String>,
    },
    /// `Nb1-c3`, `d4xe5`, `e7-e8=Q`.
    Move {
        /// Piece abbreviation as typed (empty for a pawn).
        piece: String,
        /// From-square as typed.
        from: String,
        /// To-square as typed.
        to: String,
        /// Written with `x`.
        capture: bool,
        /// Promotion abbreviation as typed.
        promotion: Option<String>,
    },
}

/// Why a move text names no legal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Nothing was written.
    #[error("no move given (write it like Nb1-c3, d4xe5, N@f3, e7-e8=Q or 0-0)")]
    Empty,
    /// The text is not a move.
    #[error("`{text}` is not a move: {expected}")]
    Syntax {
        /// The text.
        text: String,
        /// What was expected.
        expected: String,
    },
    /// A square that is not on the board.
    #[error("{0} is not a square of this board")]
    OffBoard(String),
    /// An abbreviation that names no piece.
    #[error("`{0}` is not a piece abbreviation")]
    UnknownPiece(String),
    /// Nothing of the mover's stands on the from-square.
    #[error("you have no piece on {square}{detail}")]
    NoPiece {
        /// The square.
        square: String,
        /// What stands there, if anything.
        detail: String,
    },
    /// The piece on the square is not the one named.
    #[error("{square} holds your {actual}, not {named}; write {suggestion}")]
    WrongPiece {
        /// The square.
        square: String,
        /// The abbreviation typed.
        named: String,
        /// What is there.
        actual: String,
        /// The text that would name it.
        suggestion: String,
    },
    /// The move is not legal.
    #[error("{text} is not legal: {reason}")]
    Illegal {
        /// The text.
        text: String,
        /// Why, and what would work.
        reason: String,
    },
    /// Several legal moves match.
    #[error("`{text}` could mean {}; write one of them", .readings.join(" or "))]
    Ambiguous {
        /// The text.
        text: String,
        /// The candidate readings.
        readings: Vec<String>,
    },
    /// Pawns of several armies are in hand: say which.
    #[error("you hold pawns of several armies ({}); say which: {} (or give the army option)", .choices.join(", "), .moves.join(" or "))]
    NeedArmy {
        /// The armies.
        choices: Vec<String>,
        /// The drop written for each army, as it is accepted (`P@g6(nutty)`).
        moves: Vec<String>,
    },
    /// A name in brackets that is not an army.
    #[error("`{name}` is not an army; write one of {}", .armies.join(", "))]
    UnknownArmy {
        /// The name as typed.
        name: String,
        /// The armies' names.
        armies: Vec<String>,
    },
    /// A pawn reaching the last rank must say what it becomes.
    #[error("a pawn reaching the last rank must promote: write one of {}", .choices.join(", "))]
    NeedPromotion {
        /// The moves with each promotion.
        choices: Vec<String>,
    },
}

fn strip_suffix(text: &str) -> &str {
    text.trim_end_matches(['+', '#', '!', '?'])
}

/// Splits `rest` into (prefix, square) where the square is the trailing letter + digits.
fn trailing_square(rest: &str) -> Option<(&str, &str)> {
    let before_digits = rest.trim_end_matches(|c: char| c.is_ascii_digit());
    let digits = rest.len() - before_digits.len();
    // The file is one character, which may be more than one byte (`é4`): cut on it.
    let file = before_digits.chars().next_back()?;
    if digits == 0 || digits > 2 {
        return None;
    }
    let cut = before_digits.len() - file.len_utf8();
    let sq = &rest[cut..];
    split_square(sq)?;
    Some((&rest[..cut], sq))
}

/// Reads a move's text without looking at a position.
///
/// # Errors
/// [`NotationError::Empty`] or [`NotationError::Syntax`].
pub fn parse_text(text: &str) -> Result<MoveText, NotationError> {
    let t = strip_suffix(text.trim());
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    if !t.is_ascii() {
        return Err(NotationError::Syntax {
            text: text.into(),
            expected: "only letters, digits and - x @ = ( ) are used".into(),
        });
    }
    // A drop may name its army in brackets after the square: `P@g6(nutty)`.
    let (t, army) = match t.strip_suffix(')').and_then(|b| b.rsplit_once('(')) {
        Some((body, army)) => {
            if army.is_empty() || !army.chars().all(|c| c.is_ascii_alphabetic()) {
                return Err(NotationError::Syntax {
                    text: text.into(),
                    expected: "an army's name in brackets after a drop, like P@g6(nutty)".into(),
                });
            }
            (strip_suffix(body.trim_end()), Some(army.to_string()))
        }
        None => (t, None),
    };
    if army.is_some() && !t.contains('@') {
        return Err(NotationError::Syntax {
            text: text.into(),
            expected: "an army in brackets only after a drop, like P@g6(nutty)".into(),
        });
    }
    match t {
        "0-0" | "O-O" | "o-o" => return Ok(MoveText::Castle { long: false }),
        "0-0-0" | "O-O-O" | "o-o-o" => return Ok(MoveText::Castle { long: true }),
        _ => {}
    }
    if let Some((piece, sq)) = t.split_once('@') {
        if split_square(sq).is_none() {
            return Err(NotationError::Syntax {
                text: text.into(),
                expected: "a square after @, like N@f3".into(),
            });
        }
        if !piece.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(NotationError::Syntax {
                text: text.into(),
                expected: "a piece abbreviation before @, like N@f3 or P@e4".into(),
            });
        }
        return Ok(MoveText::Drop {
            piece: piece.into(),
            to: sq.into(),
            army,
        });
    }
    let syntax = |expected: &str| NotationError::Syntax {
        text: text.into(),
        expected: expected.into(),
    };
    let (body, promotion) = match t.split_once('=') {
        Some((b, p)) => {
            if p.is_empty() || !p.chars().all(|c| c.is_ascii_alphabetic()) {
                return Err(syntax("a piece abbreviation after =, like e7-e8=Q"));
            }
            (b, Some(p.to_string()))
        }
        None => {
            // UCI-style promotion letters right after the destination (e7e8q).
            let letters = t.len() - t.trim_end_matches(|c: char| c.is_ascii_alphabetic()).len();
            if letters > 0 && letters < t.len() {
                (
                    &t[..t.len() - letters],
                    Some(t[t.len() - letters..].to_string()),
                )
            } else {
                (t, None)
            }
        }
    };
    let (before_to, to) = trailing_square(body)
        .ok_or_else(|| syntax("a destination square at the end, like Nb1-c3"))?;
    let (before_sep, capture) = if let Some(b) = before_to.strip_suffix(['x', 'X', ':']) {
        (b, true)
    } else if let Some(b) = before_to.strip_suffix('-') {
        (b, false)
    } else {
        (before_to, false)
    };
    let (piece, from) = trailing_square(before_sep)
        .ok_or_else(|| syntax("a piece, its square, - or x, and the destination, like Nb1-c3"))?;
    if !piece.chars().all(|c| c.is_ascii_alphabetic()) {
        return Err(syntax("a piece abbreviation before the from-square"));
    }
    Ok(MoveText::Move {
        piece: piece.into(),
        from: from.into(),
        to: to.into(),
        capture,
        promotion,
    })
}

fn abbr(pos: &Position, k: Kind) -> &'static str {
    pos.rules().catalog.def(k).abbr
}

/// Formats a move in the project's notation (no check mark).
pub fn format(pos: &Position, mv: Move) -> String {
    let g = &pos.rules().geometry;
    match mv {
        Move::Normal {
            from,
            to,
            promotion,
        } => {
            let mut s = String::new();
            if let Some(p) = pos.piece_at(from) {
                if !pos.rules().catalog.def(p.kind).pawn {
                    s.push_str(abbr(pos, p.kind));
                }
            }
            s.push_str(&g.name(from));
            s.push(if pos.piece_at(to).is_some() { 'x' } else { '-' });
            s.push_str(&g.name(to));
            if let Some(k) = promotion {
                s.push('=');
                s.push_str(abbr(pos, k));
            }
            s
        }
        Move::EnPassant { from, to, .. } => format!("{}x{}", g.name(from), g.name(to)),
        Move::Castle {
            king_from,
            corner_from,
            ..
        } => {
            if g.coord(corner_from).file < g.coord(king_from).file {
                "0-0-0".into()
            } else {
                "0-0".into()
            }
        }
        Move::Drop { piece, to } => format!("{}@{}", abbr(pos, piece.kind), g.name(to)),
        Move::Pass => "pass".into(),
        Move::Special(s) => format!("{:?}@{}", s.hook, g.name(s.from)),
    }
}

/// Formats a move and adds `+` when it attacks an enemy king afterwards.
pub fn format_with_check(pos: &mut Position, mv: Move) -> String {
    let mut s = format(pos, mv);
    let mover = pos.turn();
    let undo = pos.make(mv);
    let n = pos.rules().sides;
    let check = (0..n).filter(|&o| o != mover.0).any(|o| {
        pos.royal_squares(Side(o))
            .into_iter()
            .any(|k| pos.is_attacked(k, mover))
    });
    pos.unmake(mv, &undo);
    if check {
        s.push('+');
    }
    s
}

/// Formats a move naming, for a drop, the army the piece comes from: `P@g6(nutty)` (other
/// moves as [`format()`]).
pub fn format_with_army(pos: &Position, mv: Move) -> String {
    match mv {
        Move::Drop { piece, .. } => format!(
            "{}({})",
            format(pos, mv),
            pos.rules().catalog.army(piece.army).code
        ),
        _ => format(pos, mv),
    }
}

fn is_pawn_drop(pos: &Position, mv: Move) -> bool {
    matches!(mv, Move::Drop { piece, .. } if pos.rules().catalog.def(piece.kind).pawn)
}

/// The moves to offer a player (lists and suggestions), each with a text that [`resolve_in`]
/// reads back as that very move against the same `moves`, sorted by text. Pawn drops that
/// would read alike (pawns of several armies in hand, KFB rules 1.3) name their army,
/// `P@g6(nutty)`; moves that read alike and are played alike (the same piece type held
/// twice) are offered once, as the move the text is read as.
pub fn offer(pos: &Position, moves: &[Move]) -> Vec<(Move, String)> {
    let plain: Vec<String> = moves.iter().map(|&m| format(pos, m)).collect();
    let mut pawn_drops: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (&m, text) in moves.iter().zip(&plain) {
        if is_pawn_drop(pos, m) {
            *pawn_drops.entry(text.as_str()).or_default() += 1;
        }
    }
    let mut out: Vec<(Move, String)> = moves
        .iter()
        .zip(&plain)
        .map(|(&m, text)| {
            if is_pawn_drop(pos, m) && pawn_drops.get(text.as_str()).copied().unwrap_or(0) > 1 {
                (m, format_with_army(pos, m))
            } else {
                (m, text.clone())
            }
        })
        .collect();
    // Stable: of moves that read alike, the first in `moves` stays, as resolving picks it.
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out.dedup_by(|later, first| later.1 == first.1);
    out
}

/// A move written as `from-to` with the piece's abbreviation, for listing candidates.
fn describe(pos: &Position, mv: Move) -> String {
    format(pos, mv)
}

/// The moves (not drops) that reach a square, formatted and sorted.
fn moves_to(pos: &Position, legal: &[Move], to: Square) -> Vec<String> {
    legal
        .iter()
        .filter(|m| m.to() == Some(to) && !matches!(m, Move::Drop { .. }))
        .map(|m| describe(pos, *m))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

fn parse_sq(pos: &Position, s: &str) -> Result<Square, NotationError> {
    pos.rules()
        .geometry
        .parse_square(s)
        .map_err(|_| NotationError::OffBoard(s.to_string()))
}

/// Finds the legal move `text` names in `pos` for the side to move. `army` chooses among
/// pawns in hand from several armies.
///
/// # Errors
/// A [`NotationError`] saying what was expected and, for an illegal move, what would work.
pub fn resolve(
    pos: &mut Position,
    text: &str,
    army: Option<ArmyId>,
) -> Result<Move, NotationError> {
    let parsed = parse_text(text)?;
    let legal = pos.legal_moves();
    resolve_in(pos, text, &parsed, &legal, army)
}

/// Like [`resolve`], against a given list of allowed moves (the game may forbid some legal
/// moves, such as a piece locked by Kung Fu timing).
///
/// # Errors
/// As [`resolve`].
pub fn resolve_in(
    pos: &Position,
    text: &str,
    parsed: &MoveText,
    legal: &[Move],
    army: Option<ArmyId>,
) -> Result<Move, NotationError> {
    let rules = pos.rules().clone();
    let cat = &rules.catalog;
    let side = pos.turn();
    let clean = strip_suffix(text.trim()).to_string();
    match parsed {
        MoveText::Castle { long } => {
            let found: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| match *m {
                    Move::Castle {
                        king_from,
                        corner_from,
                        ..
                    } => {
                        let g = &rules.geometry;
                        (g.coord(corner_from).file < g.coord(king_from).file) == *long
                    }
                    _ => false,
                })
                .collect();
            found.first().copied().ok_or_else(|| NotationError::Illegal {
                text: clean,
                reason: "castling that way is not possible now (the king and that corner piece must not have moved, and the squares between them must be empty)".into(),
            })
        }
        MoveText::Drop {
            piece,
            to,
            army: named,
        } => {
            let to_sq = parse_sq(pos, to)?;
            let army = match named {
                None => army,
                Some(name) => {
                    let Some(a) = cat.army_by_code(name) else {
                        return Err(NotationError::UnknownArmy {
                            name: name.clone(),
                            armies: cat.armies.iter().map(|a| a.code.to_string()).collect(),
                        });
                    };
                    if let Some(b) = army.filter(|&b| b != a) {
                        return Err(NotationError::Illegal {
                            text: clean,
                            reason: format!(
                                "it names the {} army and the army option says {}; give one",
                                cat.army(a).code,
                                cat.army(b).code
                            ),
                        });
                    }
                    Some(a)
                }
            };
            let kinds: Vec<Kind> = if piece.is_empty() {
                rules.pawn.into_iter().collect()
            } else {
                cat.kinds_matching(piece)
            };
            if kinds.is_empty() {
                return Err(NotationError::UnknownPiece(piece.clone()));
            }
            let held: Vec<_> = pos
                .hand(side)
                .entries()
                .iter()
                .filter(|(h, _)| kinds.contains(&h.kind) && h.colour == pos.colour(side))
                .map(|(h, _)| *h)
                .collect();
            if held.is_empty() {
                return Err(NotationError::Illegal {
                    text: clean,
                    reason: format!("you hold no {} to drop", abbr(pos, kinds[0])),
                });
            }
            let mut found: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| matches!(m, Move::Drop { piece, to } if *to == to_sq && kinds.contains(&piece.kind)))
                .collect();
            let pawn = kinds.iter().all(|&k| cat.def(k).pawn);
            if let Some(a) = army {
                let of_army = |m: &Move| matches!(m, Move::Drop { piece, .. } if piece.army == a);
                // Other pieces of one type are one drop whatever their army (only a pawn's army
                // matters, for its promotion): a held piece of that army is enough.
                let merged =
                    !pawn && held.iter().any(|h| h.army == a) && !found.iter().any(of_army);
                if !merged {
                    found.retain(of_army);
                }
            }
            match found.len() {
                1 => Ok(found[0]),
                0 => {
                    let reason = if pos.piece_at(to_sq).is_some() {
                        format!("{to} is occupied")
                    } else if army.is_some() && !held.iter().any(|h| Some(h.army) == army) {
                        "you hold no such piece of that army".to_string()
                    } else {
                        let squares: Vec<String> = legal
                            .iter()
                            .filter_map(|m| match m {
                                Move::Drop { piece, to } if kinds.contains(&piece.kind) => {
                                    Some(rules.geometry.name(*to))
                                }
                                _ => None,
                            })
                            .collect::<std::collections::BTreeSet<_>>()
                            .into_iter()
                            .collect();
                        if squares.is_empty() {
                            "no drop of that piece is possible now".to_string()
                        } else {
                            format!("it may be dropped on {}", squares.join(" "))
                        }
                    };
                    Err(NotationError::Illegal {
                        text: clean,
                        reason,
                    })
                }
                _ => {
                    let mut armies: Vec<(String, String)> = found
                        .iter()
                        .filter_map(|&m| match m {
                            Move::Drop { piece, .. } => Some((
                                cat.army(piece.army).code.to_string(),
                                format_with_army(pos, m),
                            )),
                            _ => None,
                        })
                        .collect();
                    armies.sort();
                    armies.dedup();
                    if pawn && armies.len() > 1 {
                        let (choices, moves) = armies.into_iter().unzip();
                        Err(NotationError::NeedArmy { choices, moves })
                    } else {
                        Ok(found[0])
                    }
                }
            }
        }
        MoveText::Move {
            piece,
            from,
            to,
            promotion,
            ..
        } => {
            let from_sq = parse_sq(pos, from)?;
            let to_sq = parse_sq(pos, to)?;
            let Some(p) = pos.piece_at(from_sq).filter(|p| p.side == side) else {
                let mut detail = match pos.piece_at(from_sq) {
                    Some(q) => format!(" ({from} holds your opponent's {})", abbr(pos, q.kind)),
                    None => format!(" ({from} is empty)"),
                };
                let reaching = moves_to(pos, legal, to_sq);
                if !reaching.is_empty() {
                    detail.push_str(&format!("; moves to {to}: {}", reaching.join(" ")));
                }
                return Err(NotationError::NoPiece {
                    square: from.clone(),
                    detail,
                });
            };
            let def = cat.def(p.kind);
            if !piece.is_empty() {
                let kinds = cat.kinds_matching(piece);
                if kinds.is_empty() {
                    return Err(NotationError::UnknownPiece(piece.clone()));
                }
                if !kinds.contains(&p.kind) {
                    let prefix = if def.pawn { "" } else { def.abbr };
                    let own_reaches = legal
                        .iter()
                        .any(|m| m.from() == Some(from_sq) && m.to() == Some(to_sq));
                    if own_reaches {
                        return Err(NotationError::WrongPiece {
                            square: from.clone(),
                            named: piece.clone(),
                            actual: def.abbr.to_string(),
                            suggestion: format!("{prefix}{from}-{to}"),
                        });
                    }
                    let reaching = moves_to(pos, legal, to_sq);
                    let reason = if reaching.is_empty() {
                        format!(
                            "{from} holds your {}, not {piece}, and nothing of yours can move to {to}",
                            def.abbr
                        )
                    } else {
                        format!(
                            "{from} holds your {}, not {piece}; moves to {to}: {}",
                            def.abbr,
                            reaching.join(" ")
                        )
                    };
                    return Err(NotationError::Illegal {
                        text: clean,
                        reason,
                    });
                }
            }
            let mut found: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| m.from() == Some(from_sq) && m.to() == Some(to_sq))
                .filter(|m| !matches!(m, Move::Castle { .. }))
                .collect();
            if found.is_empty() {
                // Castling written as the king's two-square move.
                found = legal
                    .iter()
                    .copied()
                    .filter(|m| matches!(m, Move::Castle { king_from, king_to, .. } if *king_from == from_sq && *king_to == to_sq))
                    .collect();
            }
            if found.is_empty() {
                let targets: Vec<String> = legal
                    .iter()
                    .filter(|m| m.from() == Some(from_sq))
                    .map(|m| describe(pos, *m))
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect();
                let reason = if targets.is_empty() {
                    format!("your {} on {from} has no legal move now", def.abbr)
                } else {
                    format!(
                        "your {} on {from} cannot go to {to}; its moves are {}",
                        def.abbr,
                        targets.join(" ")
                    )
                };
                return Err(NotationError::Illegal {
                    text: clean,
                    reason,
                });
            }
            let promos: Vec<Move> = found
                .iter()
                .copied()
                .filter(|m| {
                    matches!(
                        m,
                        Move::Normal {
                            promotion: Some(_),
                            ..
                        }
                    )
                })
                .collect();
            if !promos.is_empty() {
                let choices: Vec<String> = promos.iter().map(|m| describe(pos, *m)).collect();
                let Some(ptext) = promotion else {
                    return Err(NotationError::NeedPromotion { choices });
                };
                let kinds = cat.kinds_matching(ptext);
                let chosen: Vec<Move> = promos
                    .iter()
                    .copied()
                    .filter(|m| matches!(m, Move::Normal { promotion: Some(k), .. } if kinds.contains(k)))
                    .collect();
                return match chosen.len() {
                    1 => Ok(chosen[0]),
                    0 => Err(NotationError::Illegal {
                        text: clean,
                        reason: format!(
                            "this pawn cannot become {ptext}; it may promote as {}",
                            choices.join(", ")
                        ),
                    }),
                    _ => Err(NotationError::Ambiguous {
                        text: clean,
                        readings: chosen.iter().map(|m| describe(pos, *m)).collect(),
                    }),
                };
            }
            if let Some(ptext) = promotion {
                return Err(NotationError::Illegal {
                    text: clean,
                    reason: format!("only a pawn reaching the last rank promotes (not to {ptext})"),
                });
            }
            match found.len() {
                1 => Ok(found[0]),
                _ => Err(NotationError::Ambiguous {
                    text: clean,
                    readings: found.iter().map(|m| describe(pos, *m)).collect(),
                }),
            }
        }
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveText::Castle { long: false } => f.write_str("0-0"),
            MoveText::Castle { long: true } => f.write_str("0-0-0"),
            MoveText::Drop { piece, to, army } => {
                write!(f, "{piece}@{to}")?;
                if let Some(a) = army {
                    write!(f, "({a})")?;
                }
                Ok(())
            }
            MoveText::Move {
                piece,
                from,
                to,
                capture,
                promotion,
            } => {
                write!(f, "{piece}{from}{}{to}", if *capture { 'x' } else { '-' })?;
                if let Some(p) = promotion {
                    write!(f, "={p}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_forms() {
        assert_eq!(
            parse_text("Nb1-c3").unwrap(),
            MoveText::Move {
                piece: "N".into(),
                from: "b1".into(),
                to: "c3".into(),
                capture: false,
                promotion: None
            }
        );
        assert!(
            matches!(parse_text("e7-e8=Q+").unwrap(), MoveText::Move { promotion: Some(p), .. } if p == "Q")
        );
        assert!(
            matches!(parse_text("Bee4xe5").unwrap(), MoveText::Move { piece, .. } if piece == "Be")
        );
        assert!(
            matches!(parse_text("Ca@d4").unwrap(), MoveText::Drop { piece, .. } if piece == "Ca")
        );
        assert_eq!(
            parse_text("O-O-O").unwrap(),
            MoveText::Castle { long: true }
        );
        assert!(
            matches!(parse_text("j10-t20").unwrap(), MoveText::Move { from, to, .. } if from == "j10" && to == "t20")
        );
        assert!(parse_text("").is_err());
        assert!(parse_text("Nb1-").is_err());
        assert!(parse_text("@").is_err());
        assert!(parse_text("é4").is_err());
    }
}
