//! Position text: FEN with multi-letter pieces in braces, `~` for promoted pieces, `*` for
//! squares that are not part of the board, and hands in square brackets after the placement
//! (shared rules 0.2): `{be}w{fad}{ca}k{fad}w{be}/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[{Ca}p] w KQkq - 0 1`.

use std::fmt::Write as _;
use std::sync::Arc;

use super::geometry::{Coord, Square};
use super::piece::Kind;
use super::position::{CastleRight, Colour, EnPassant, HandPiece, Piece, Position};
use super::rules::{orient, Rules, Side};

/// A malformed position text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is empty.
    #[error("the position is empty")]
    Empty,
    /// Wrong number of ranks.
    #[error("the board has {found} ranks separated by `/`, but this board has {expected}")]
    RankCount {
        /// Expected.
        expected: usize,
        /// Found.
        found: usize,
    },
    /// A rank with the wrong number of files.
    #[error("rank {rank} describes {found} files, but the board has {expected}")]
    FileCount {
        /// Rank label.
        rank: usize,
        /// Expected.
        expected: usize,
        /// Found.
        found: usize,
    },
    /// An unknown piece letter.
    #[error("unknown piece `{0}` (multi-letter pieces go in braces, like {{Ca}})")]
    UnknownPiece(String),
    /// A piece on a square that is not part of the board, or `*` on a playable square.
    #[error("rank {0}: the squares marked do not match the board's shape")]
    Shape(usize),
    /// An unclosed brace or bracket.
    #[error("unclosed `{0}`")]
    Unclosed(char),
    /// A bad side-to-move field.
    #[error("side to move must be w or b, not `{0}`")]
    Turn(String),
    /// A bad castling field.
    #[error("castling field `{0}`: {1}")]
    Castling(String, String),
    /// A bad en passant field.
    #[error(
        "en passant field `{0}` is not a square just passed over by a pawn's double step, or -"
    )]
    EnPassant(String),
    /// An empty-square count that is not 1 to 26.
    #[error("`{0}` empty squares: a run of empty squares is 1 to 26")]
    EmptyRun(String),
    /// Too many pieces in a hand.
    #[error("a hand may hold at most 1000 pieces")]
    HandTooLarge,
    /// `~` (promoted) on a pawn, which no promotion makes.
    #[error("`{0}~`: a pawn is never a promoted piece (`~` marks pieces that were pawns)")]
    PromotedPawn(String),
    /// A bad counter.
    #[error("move counter `{0}` is not a number")]
    Counter(String),
    /// Text after the last field.
    #[error("unexpected text after the position: `{0}`")]
    Trailing(String),
}

fn lookup(rules: &Rules, token: &str) -> Result<(Kind, Side), FenError> {
    let upper = token.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    let side = if upper { Side::WHITE } else { Side::BLACK };
    let found = rules.catalog.pieces.iter().position(|p| {
        if upper {
            p.abbr == token
        } else {
            p.abbr.to_lowercase() == token
        }
    });
    match found {
        Some(i) => Ok((Kind(i as u8), side)),
        None => Err(FenError::UnknownPiece(token.to_string())),
    }
}

fn army_for(rules: &Rules, kind: Kind, side: Side, promoted: bool) -> super::piece::ArmyId {
    let def = rules.catalog.def(kind);
    // Pawns, kings and promoted pieces take their owner's army (a pawn promotes only into its
    // own army, and a FEN pawn's army is its owner's).
    if def.pawn || def.royal || promoted {
        return rules.side_armies[side.index()];
    }
    rules
        .catalog
        .army_of_kind(kind)
        .unwrap_or(rules.side_armies[side.index()])
}

/// Reads pieces (`P`, `{Ca}`, `q~`) from a string; calls `f` with each and whether it is
/// promoted, or with `None` for digits/`*` handled by `other`.
fn tokens(text: &str) -> Result<Vec<Token>, FenError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let s: String = chars[start..i].iter().collect();
            let n: usize = s
                .parse()
                .ok()
                .filter(|&n| n >= 1 && n <= super::geometry::MAX_SIDE as usize)
                .ok_or(FenError::EmptyRun(s))?;
            out.push(Token::Empty(n));
            continue;
        }
        if c == '*' {
            out.push(Token::Hole);
            i += 1;
            continue;
        }
        let name: String = if c == '{' {
            let end = chars[i..]
                .iter()
                .position(|&x| x == '}')
                .ok_or(FenError::Unclosed('{'))?;
            let s: String = chars[i + 1..i + end].iter().collect();
            i += end + 1;
            s
        } else if c.is_ascii_alphabetic() {
            i += 1;
            c.to_string()
        } else {
            return Err(FenError::UnknownPiece(c.to_string()));
        };
        let promoted = chars.get(i) == Some(&'~');
        if promoted {
            i += 1;
        }
        out.push(Token::Piece(name, promoted));
    }
    Ok(out)
}

/// A pawn marked promoted is refused: no move makes one, and taking back a promotion gives
/// back a plain pawn, so such a position would not survive a move made and taken back.
fn refuse_promoted_pawn(
    rules: &Rules,
    kind: Kind,
    promoted: bool,
    name: &str,
) -> Result<(), FenError> {
    let pawn = rules
        .catalog
        .pieces
        .get(kind.0 as usize)
        .is_some_and(|p| p.pawn);
    if promoted && pawn {
        return Err(FenError::PromotedPawn(name.to_string()));
    }
    Ok(())
}

/// Most pieces a FEN hand may hold.
const MAX_HAND: usize = 1000;

enum Token {
    Empty(usize),
    Hole,
    Piece(String, bool),
}

/// Parses a position for these rules.
///
/// # Errors
/// A [`FenError`] saying what is wrong.
pub fn parse(rules: Arc<Rules>, text: &str) -> Result<Position, FenError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(FenError::Empty);
    }
    let mut fields = text.split_whitespace();
    let placement = fields.next().ok_or(FenError::Empty)?;
    let (board_text, hand_text) = match placement.find('[') {
        Some(i) => {
            let rest = &placement[i + 1..];
            let end = rest.find(']').ok_or(FenError::Unclosed('['))?;
            if !rest[end + 1..].is_empty() {
                return Err(FenError::Trailing(rest[end + 1..].to_string()));
            }
            (&placement[..i], Some(&rest[..end]))
        }
        None => (placement, None),
    };
    let mut pos = Position::empty(rules.clone());
    let g = &rules.geometry;
    let rows: Vec<&str> = board_text.split('/').collect();
    if rows.len() != g.ranks() as usize {
        return Err(FenError::RankCount {
            expected: g.ranks() as usize,
            found: rows.len(),
        });
    }
    for (ri, row) in rows.iter().enumerate() {
        let rank = g.ranks() as usize - 1 - ri;
        let mut file = 0usize;
        for t in tokens(row)? {
            match t {
                Token::Empty(n) => {
                    for f in file..file + n {
                        if f < g.files() as usize
                            && g.square(Coord::new(f as u8, rank as u8)).is_none()
                        {
                            return Err(FenError::Shape(rank + 1));
                        }
                    }
                    file += n;
                }
                Token::Hole => {
                    if file < g.files() as usize
                        && g.square(Coord::new(file as u8, rank as u8)).is_some()
                    {
                        return Err(FenError::Shape(rank + 1));
                    }
                    file += 1;
                }
                Token::Piece(name, promoted) => {
                    let (kind, side) = lookup(&rules, &name)?;
                    refuse_promoted_pawn(&rules, kind, promoted, &name)?;
                    if file >= g.files() as usize {
                        file += 1;
                        continue;
                    }
                    let sq = g
                        .square(Coord::new(file as u8, rank as u8))
                        .ok_or(FenError::Shape(rank + 1))?;
                    pos.put(
                        sq,
                        Some(Piece {
                            kind,
                            side,
                            army: army_for(&rules, kind, side, promoted),
                            promoted,
                        }),
                    );
                    file += 1;
                }
            }
        }
        if file != g.files() as usize {
            return Err(FenError::FileCount {
                rank: rank + 1,
                expected: g.files() as usize,
                found: file,
            });
        }
    }
    if let Some(h) = hand_text {
        for t in tokens(h)? {
            match t {
                Token::Piece(name, promoted) => {
                    let (kind, side) = lookup(&rules, &name)?;
                    refuse_promoted_pawn(&rules, kind, promoted, &name)?;
                    let hp = HandPiece {
                        kind,
                        colour: Colour(side.0),
                        army: army_for(&rules, kind, side, promoted),
                        promoted,
                    };
                    if pos.hand(side).len() >= MAX_HAND {
                        return Err(FenError::HandTooLarge);
                    }
                    pos.hand_mut(side).add(hp);
                }
                _ => return Err(FenError::UnknownPiece(h.to_string())),
            }
        }
    }
    let turn = match fields.next() {
        None | Some("w") => Side::WHITE,
        Some("b") => Side::BLACK,
        Some(t) => return Err(FenError::Turn(t.to_string())),
    };
    pos.set_turn(turn);
    if let Some(c) = fields.next() {
        parse_castling(&mut pos, c)?;
    }
    if let Some(e) = fields.next() {
        if e != "-" {
            let target = g
                .parse_square(e)
                .map_err(|_| FenError::EnPassant(e.to_string()))?;
            let prev = Side((turn.0 + rules.sides - 1) % rules.sides);
            let (dx, dy) = orient(prev, (0, 1));
            let victim = target.offset(g.offset(dx, dy));
            let origin = target.offset(-g.offset(dx, dy));
            let valid = pos.piece_at(target).is_none()
                && g.is_playable(origin)
                && pos.piece_at(origin).is_none()
                && pos
                    .piece_at(victim)
                    .is_some_and(|p| p.side == prev && rules.catalog.def(p.kind).pawn);
            if !valid {
                return Err(FenError::EnPassant(e.to_string()));
            }
            pos.set_en_passant(Some(EnPassant { target, victim }));
        }
    }
    let mut counter = |d: u32| -> Result<u32, FenError> {
        match fields.next() {
            None => Ok(d),
            Some(s) => s.parse().map_err(|_| FenError::Counter(s.to_string())),
        }
    };
    let half = counter(0)?;
    let full = counter(1)?;
    pos.set_counters(half, full.max(1));
    if let Some(extra) = fields.next() {
        return Err(FenError::Trailing(extra.to_string()));
    }
    Ok(pos)
}

fn parse_castling(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let rules = pos.rules().clone();
    let g = &rules.geometry;
    for ch in field.chars() {
        let (side, kingside) = match ch {
            'K' => (Side::WHITE, true),
            'Q' => (Side::WHITE, false),
            'k' => (Side::BLACK, true),
            'q' => (Side::BLACK, false),
            _ => {
                return Err(FenError::Castling(
                    field.into(),
                    format!("`{ch}` is not one of K Q k q"),
                ))
            }
        };
        let rank = if side == Side::WHITE {
            0
        } else {
            g.ranks() - 1
        };
        let kings: Vec<_> = (0..g.files())
            .filter_map(|f| {
                let sq = g.square(Coord::new(f, rank))?;
                let p = pos.piece_at(sq)?;
                (p.side == side && rules.catalog.def(p.kind).royal).then_some(sq)
            })
            .collect();
        let corner_file = if kingside { g.files() - 1 } else { 0 };
        // A second king (dropped, KFB rules 1.10) may stand on the rank too: the castling king
        // is the one on the kings' start file, else one far enough from the corner.
        let king = kings
            .iter()
            .copied()
            .find(|&k| g.coord(k).file == g.files() / 2)
            .or_else(|| {
                kings
                    .iter()
                    .copied()
                    .find(|&k| g.coord(k).file.abs_diff(corner_file) >= 2)
            })
            .or_else(|| kings.first().copied());
        let Some(king) = king else {
            return Err(FenError::Castling(
                field.into(),
                format!("`{ch}` needs a king on its first rank"),
            ));
        };
        let corner = g.square(Coord::new(corner_file, rank));
        let king_file = g.coord(king).file;
        let ok = corner.and_then(|c| pos.piece_at(c)).is_some_and(|p| {
            p.side == side
                && !rules.catalog.def(p.kind).royal
                && king_file.abs_diff(corner_file) >= 2
        });
        match corner {
            Some(corner) if ok => pos.add_castle_right(CastleRight { side, king, corner }),
            _ => {
                return Err(FenError::Castling(
                    field.into(),
                    format!("`{ch}` needs a piece of that side in the corner"),
                ))
            }
        }
    }
    Ok(())
}

/// Writes a piece token (`P`, `{Ca}`, `{ca}`), with `~` when promoted.
pub fn piece_token(rules: &Rules, kind: Kind, side: Side, promoted: bool) -> String {
    let abbr = rules.catalog.def(kind).abbr;
    let t = if side == Side::WHITE {
        abbr.to_string()
    } else {
        abbr.to_lowercase()
    };
    let mut s = if abbr.chars().count() > 1 {
        format!("{{{t}}}")
    } else {
        t
    };
    if promoted {
        s.push('~');
    }
    s
}

/// The placement field alone (ranks from the top, `/`-separated).
pub fn write_placement(pos: &Position) -> String {
    let rules = pos.rules();
    let g = &rules.geometry;
    let mut out = String::new();
    for r in (0..g.ranks()).rev() {
        let mut empty = 0;
        for f in 0..g.files() {
            match g.square(Coord::new(f, r)) {
                None => {
                    if empty > 0 {
                        let _ = write!(out, "{empty}");
                        empty = 0;
                    }
                    out.push('*');
                }
                Some(sq) => match pos.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push_str(&piece_token(rules, p.kind, p.side, p.promoted));
                    }
                },
            }
        }
        if empty > 0 {
            let _ = write!(out, "{empty}");
        }
        if r > 0 {
            out.push('/');
        }
    }
    out
}

/// The hand field's contents (without brackets): side 0's pieces upper case, then side 1's.
pub fn write_hands(pos: &Position) -> String {
    let rules = pos.rules();
    let mut out = String::new();
    for s in 0..rules.sides {
        for &(hp, n) in pos.hand(Side(s)).entries() {
            for _ in 0..n {
                out.push_str(&piece_token(rules, hp.kind, Side(s), hp.promoted));
            }
        }
    }
    out
}

/// Writes a position.
pub fn write(pos: &Position) -> String {
    let rules = pos.rules();
    let mut out = write_placement(pos);
    let any_hand = (0..rules.sides).any(|s| !pos.hand(Side(s)).is_empty());
    if rules.drops.enabled || any_hand {
        let _ = write!(out, "[{}]", write_hands(pos));
    }
    out.push_str(if pos.turn() == Side::WHITE {
        " w "
    } else {
        " b "
    });
    let mut castle = String::new();
    let g = &rules.geometry;
    for side in [Side::WHITE, Side::BLACK] {
        for kingside in [true, false] {
            let has = pos.castle_rights().any(|r| {
                r.side == side && (g.coord(r.corner).file > g.coord(r.king).file) == kingside
            });
            if has {
                let c = if kingside { 'K' } else { 'Q' };
                castle.push(if side == Side::WHITE {
                    c
                } else {
                    c.to_ascii_lowercase()
                });
            }
        }
    }
    if castle.is_empty() {
        castle.push('-');
    }
    out.push_str(&castle);
    match pos.usable_en_passant() {
        Some(target) => {
            let _ = write!(out, " {}", g.name(target));
        }
        None => out.push_str(" -"),
    }
    let _ = write!(out, " {} {}", pos.halfmove(), pos.fullmove());
    out
}

/// A square of a position by name, for tests and tools.
pub fn square(pos: &Position, name: &str) -> Option<Square> {
    pos.rules().geometry.parse_square(name).ok()
}
/// A position shows as its FEN (`Position(rnbqkbnr/…)`), written here beside the writer.
impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", write(self))
    }
}
