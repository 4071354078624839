//! The six FIDE piece kinds, for the games that play with them alone (Chex, Nomic Chess): one
//! enum, its letters and names, and the steps and directions of its leapers and riders (as
//! (file, rank) offsets). Stored logs and settings name the kinds as the variants do
//! (`"Queen"`), so this type reads every game stored before it was shared.

/// A FIDE piece kind.
#[derive(
    Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Kind {
    /// King.
    King,
    /// Queen.
    Queen,
    /// Rook.
    Rook,
    /// Bishop.
    Bishop,
    /// Knight.
    Knight,
    /// Pawn.
    Pawn,
}

impl Kind {
    /// Every kind, in the order texts list them.
    pub const ALL: [Kind; 6] = [
        Kind::King,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Pawn,
    ];

    /// The upper-case letter (`K Q R B N P`).
    pub fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Queen => 'Q',
            Kind::Rook => 'R',
            Kind::Bishop => 'B',
            Kind::Knight => 'N',
            Kind::Pawn => 'P',
        }
    }

    /// The kind of an upper-case letter. Notation where a lower-case letter is a file (`b4`)
    /// reads pieces with this.
    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.letter() == c)
    }

    /// The kind of a letter in either case (`n` or `N`).
    pub fn from_either_case(c: char) -> Option<Kind> {
        Kind::from_letter(c.to_ascii_uppercase())
    }

    /// How many of it each side has in the FIDE sixteen.
    pub fn count(self) -> usize {
        match self {
            Kind::King | Kind::Queen => 1,
            Kind::Rook | Kind::Bishop | Kind::Knight => 2,
            Kind::Pawn => 8,
        }
    }

    /// The name, capitalised (`Queen`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::King => "King",
            Kind::Queen => "Queen",
            Kind::Rook => "Rook",
            Kind::Bishop => "Bishop",
            Kind::Knight => "Knight",
            Kind::Pawn => "Pawn",
        }
    }

    /// The name in running text (`queen`).
    pub fn lower_name(self) -> &'static str {
        match self {
            Kind::King => "king",
            Kind::Queen => "queen",
            Kind::Rook => "rook",
            Kind::Bishop => "bishop",
            Kind::Knight => "knight",
            Kind::Pawn => "pawn",
        }
    }
}

/// A Knight's eight leaps, in the order moves are listed.
pub const KNIGHT_LEAPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// A Rook's four directions.
pub const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// A Bishop's four directions.
pub const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

#[cfg(test)]
mod tests {
    use super::Kind;

    #[test]
    fn letters_read_back_and_case_matters_only_where_asked() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_letter(k.letter()), Some(k));
            assert_eq!(
                Kind::from_either_case(k.letter().to_ascii_lowercase()),
                Some(k)
            );
            assert_eq!(Kind::from_letter(k.letter().to_ascii_lowercase()), None);
            assert_eq!(k.name().to_lowercase(), k.lower_name());
        }
        let total: usize = Kind::ALL.into_iter().map(Kind::count).sum();
        assert_eq!(total, 16);
    }

    #[test]
    fn stored_names_are_the_variants() {
        assert_eq!(serde_json::to_string(&Kind::Queen).unwrap(), "\"Queen\"");
        let k: Kind = serde_json::from_str("\"Knight\"").unwrap();
        assert_eq!(k, Kind::Knight);
    }
}
