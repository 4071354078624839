//! Pieces as data: each piece type is a definition with a Betza movement string, and armies are
//! lists of piece types.

use super::betza::{self, BetzaError, Movement};

/// Index of a piece type in a [`Catalog`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Kind(pub u8);

/// Index of an army in a [`Catalog`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ArmyId(pub u8);

/// Movement that Betza notation cannot express: a small named hook the move generator calls.
/// Party Chess will fill these in; the engine's types already carry them.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum Hook {
    /// Captures without moving (Party Chess's Archer).
    Archer,
    /// Destroyed by its own capture (Kamikaze).
    Kamikaze,
    /// Several captures in one move (Tornado).
    Tornado,
    /// A two-part move (Qball).
    Qball,
    /// Movement limited to a zone (Demon).
    Demon,
    /// Range that grows with captures, kept across capture (HarfyBlob).
    HarfyBlob,
    /// Copies the piece last moved (Echo).
    Echo,
    /// Lends its moves to its neighbours (Cantor).
    Cantor,
}

/// The definition of one piece type.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// Full name (`Cardinal`).
    pub name: &'static str,
    /// Abbreviation players type (`Ca`); one or more letters, the first upper case.
    pub abbr: &'static str,
    /// Material value in pawns.
    pub value: u32,
    /// Movement as written.
    pub betza: &'static str,
    /// Movement as parsed.
    pub movement: Movement,
    /// A king: captured to win, checked in orthodox play, castles.
    pub royal: bool,
    /// A pawn: promotes on the last rank, can be taken en passant, has drop restrictions.
    pub pawn: bool,
    /// Movement beyond Betza, if any.
    pub hook: Option<Hook>,
}

/// An army: the pieces on its home rank (files a to h) and what its pawns promote to.
#[derive(Clone, Debug)]
pub struct Army {
    /// Code used in commands (`clobberers`).
    pub code: &'static str,
    /// Name shown to players (`Colorbound Clobberers`).
    pub name: &'static str,
    /// Code used by the reference engine's variant names (`clob`).
    pub oracle_code: &'static str,
    /// Home rank, files a to h.
    pub home: Vec<Kind>,
    /// Promotion choices of this army's pawns.
    pub promotions: Vec<Kind>,
}

/// Errors building a catalogue.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogError {
    /// A piece's movement does not parse.
    #[error("piece {piece}: {source}")]
    Betza {
        /// The piece.
        piece: &'static str,
        /// The parse error.
        source: BetzaError,
    },
    /// An army names a piece that does not exist.
    #[error("army {army}: unknown piece {abbr}")]
    UnknownPiece {
        /// The army.
        army: &'static str,
        /// The abbreviation.
        abbr: &'static str,
    },
}

/// A set of piece types and armies.
#[derive(Clone, Debug)]
pub struct Catalog {
    /// Piece types, indexed by [`Kind`].
    pub pieces: Vec<PieceDef>,
    /// Armies, indexed by [`ArmyId`].
    pub armies: Vec<Army>,
}

/// One row of the piece table: (name, abbreviation, value, Betza, royal, pawn).
type PieceRow = (&'static str, &'static str, u32, &'static str, bool, bool);

/// The 20 piece types of Chess with Different Armies as Kung Fu Bughouse plays them
/// (KFB rules 1.1): the Cardinal's diagonal is limited to 4 squares and the Rookies' rook is a
/// full rook.
const CWDA_PIECES: &[PieceRow] = &[
    ("Pawn", "P", 1, "fmWfceFifmnD", false, true),
    ("King", "K", 0, "K", true, false),
    ("Knight", "N", 3, "N", false, false),
    ("Bishop", "B", 3, "B", false, false),
    ("Rook", "R", 5, "R", false, false),
    ("Queen", "Q", 9, "Q", false, false),
    ("Cardinal", "Ca", 7, "B4N", false, false),
    ("Bede", "Be", 5, "BD", false, false),
    ("FAD", "FAD", 4, "FAD", false, false),
    ("Waffle", "W", 3, "WA", false, false),
    ("Colonel", "Co", 8, "KfsRfhN", false, false),
    ("Charging Rook", "CR", 5, "fsRbK", false, false),
    ("Charging Knight", "CN", 3, "fhNsWbK", false, false),
    ("Fibnif", "Fb", 3, "FvN", false, false),
    ("Chancellor", "Ch", 8, "RN", false, false),
    ("Half Duck", "HD", 4, "HFD", false, false),
    ("Woody Rook", "WR", 4, "WD", false, false),
    ("Forequeen", "FQ", 8, "fsRfBbKbhN", false, false),
    ("Bishight", "BN", 3, "fBbhN", false, false),
    ("Knishop", "NB", 3, "fhNbB", false, false),
];

/// One row of the army table: (code, name, oracle code, home rank a–h, promotions).
type ArmyRow = (
    &'static str,
    &'static str,
    &'static str,
    [&'static str; 8],
    [&'static str; 4],
);

const CWDA_ARMIES: &[ArmyRow] = &[
    (
        "fide",
        "Fabulous FIDEs",
        "fide",
        ["R", "N", "B", "Q", "K", "B", "N", "R"],
        ["Q", "R", "B", "N"],
    ),
    (
        "clobberers",
        "Colorbound Clobberers",
        "clob",
        ["Be", "W", "FAD", "Ca", "K", "FAD", "W", "Be"],
        ["Ca", "Be", "FAD", "W"],
    ),
    (
        "nutty",
        "Nutty Knights",
        "nutty",
        ["CR", "Fb", "CN", "Co", "K", "CN", "Fb", "CR"],
        ["Co", "CR", "CN", "Fb"],
    ),
    (
        "rookies",
        "Remarkable Rookies",
        "rook",
        ["R", "WR", "HD", "Ch", "K", "HD", "WR", "R"],
        ["Ch", "R", "HD", "WR"],
    ),
    (
        "forward",
        "Forward FIDEs",
        "fwd",
        ["CR", "NB", "BN", "FQ", "K", "BN", "NB", "CR"],
        ["FQ", "CR", "BN", "NB"],
    ),
];

impl Catalog {
    /// Builds a catalogue from tables, parsing every movement.
    fn build(pieces: &[PieceRow], armies: &[ArmyRow]) -> Result<Catalog, CatalogError> {
        let mut defs = Vec::with_capacity(pieces.len());
        for &(name, abbr, value, betza, royal, pawn) in pieces {
            let movement = betza::parse(betza).map_err(|source| CatalogError::Betza {
                piece: name,
                source,
            })?;
            defs.push(PieceDef {
                name,
                abbr,
                value,
                betza,
                movement,
                royal,
                pawn,
                hook: None,
            });
        }
        let mut cat = Catalog {
            pieces: defs,
            armies: Vec::new(),
        };
        for &(code, name, oracle_code, home, promos) in armies {
            let find = |abbr: &'static str| {
                cat.kind_by_abbr(abbr)
                    .ok_or(CatalogError::UnknownPiece { army: code, abbr })
            };
            let home = home
                .iter()
                .map(|a| find(a))
                .collect::<Result<Vec<_>, _>>()?;
            let promotions = promos
                .iter()
                .map(|a| find(a))
                .collect::<Result<Vec<_>, _>>()?;
            cat.armies.push(Army {
                code,
                name,
                oracle_code,
                home,
                promotions,
            });
        }
        Ok(cat)
    }

    /// The five armies of Kung Fu Bughouse (KFB rules 1.1) and their 20 piece types.
    ///
    /// # Errors
    /// Only if the built-in tables were edited into something invalid (a test guards them).
    pub fn cwda() -> Result<Catalog, CatalogError> {
        Self::build(CWDA_PIECES, CWDA_ARMIES)
    }

    /// The piece type with this exact abbreviation.
    pub fn kind_by_abbr(&self, abbr: &str) -> Option<Kind> {
        self.pieces
            .iter()
            .position(|p| p.abbr == abbr)
            .map(|i| Kind(i as u8))
    }

    /// The piece types whose abbreviation matches `text` as players may type it: exactly, or
    /// with letters after the first in another case (`CA`, `Fad`), or wholly lower case when
    /// that is unambiguous (`ca`, `n`).
    pub fn kinds_matching(&self, text: &str) -> Vec<Kind> {
        if let Some(k) = self.kind_by_abbr(text) {
            return vec![k];
        }
        let mut out: Vec<Kind> = Vec::new();
        let first_same = |p: &PieceDef| p.abbr.chars().next() == text.chars().next();
        for (i, p) in self.pieces.iter().enumerate() {
            if p.abbr.eq_ignore_ascii_case(text) && first_same(p) {
                out.push(Kind(i as u8));
            }
        }
        if out.is_empty() {
            for (i, p) in self.pieces.iter().enumerate() {
                if p.abbr.eq_ignore_ascii_case(text) {
                    out.push(Kind(i as u8));
                }
            }
        }
        out
    }

    /// The definition of a piece type.
    #[inline]
    pub fn def(&self, k: Kind) -> &PieceDef {
        &self.pieces[k.0 as usize]
    }

    /// The army with this command code (`nutty`) or oracle code (`nutty`, `clob`).
    pub fn army_by_code(&self, code: &str) -> Option<ArmyId> {
        self.armies
            .iter()
            .position(|a| a.code.eq_ignore_ascii_case(code) || a.oracle_code == code)
            .map(|i| ArmyId(i as u8))
    }

    /// An army.
    #[inline]
    pub fn army(&self, a: ArmyId) -> &Army {
        &self.armies[a.0 as usize]
    }

    /// The pawn type.
    pub fn pawn(&self) -> Option<Kind> {
        self.pieces
            .iter()
            .position(|p| p.pawn)
            .map(|i| Kind(i as u8))
    }

    /// The king type.
    pub fn king(&self) -> Option<Kind> {
        self.pieces
            .iter()
            .position(|p| p.royal)
            .map(|i| Kind(i as u8))
    }

    /// The army a non-pawn, non-king piece type belongs to (the first army listing it).
    pub fn army_of_kind(&self, k: Kind) -> Option<ArmyId> {
        self.armies
            .iter()
            .position(|a| a.home.contains(&k) && !self.def(k).royal)
            .map(|i| ArmyId(i as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_builds() {
        let c = Catalog::cwda().unwrap();
        assert_eq!(c.pieces.len(), 20);
        assert_eq!(c.armies.len(), 5);
        for a in &c.armies {
            assert_eq!(a.home.len(), 8);
            assert_eq!(a.promotions.len(), 4);
        }
        assert_eq!(c.kinds_matching("ca"), vec![c.kind_by_abbr("Ca").unwrap()]);
        assert_eq!(
            c.kinds_matching("Fad"),
            vec![c.kind_by_abbr("FAD").unwrap()]
        );
    }
}
