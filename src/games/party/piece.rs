//! Party Chess pieces (Party rules 3.1, 3.2): the types, their letters, values and instance
//! limits, and the movement of the simple ones as Betza data.

use std::sync::LazyLock;

use crate::engine::betza::{self, Movement};

/// A piece type of the rule suite.
#[derive(
    Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, serde::Serialize, serde::Deserialize,
)]
pub enum Kind {
    /// `K`, value 0, limit 1.
    King,
    /// `R`, value 9.
    Rook,
    /// `C`, value 5.
    Camel,
    /// `B`, value 6.
    Bishop,
    /// `P`, value 1.
    Pawn,
    /// `O`, value 7.
    CopyCat,
    /// `E`, value 7.
    Echo,
    /// `J`, value 3.
    Jester,
    /// `Q`, value 7.
    Qball,
    /// `H`, value 7, with its range Hn.
    HarfyBlob,
    /// `A`, value 7.
    Archer,
    /// `Z`, value 6.
    Kamikaze,
    /// `!`, value 5.
    Bouncy,
    /// `D`, value 2.
    Demon,
    /// `T`, value 11, limit 1.
    Tornado,
    /// `%`, value 5.
    Cantor,
}

impl Kind {
    /// Every type, in the order of the letters `K R C B P O E J Q H A Z ! D T %`.
    pub const ALL: [Kind; 16] = [
        Kind::King,
        Kind::Rook,
        Kind::Camel,
        Kind::Bishop,
        Kind::Pawn,
        Kind::CopyCat,
        Kind::Echo,
        Kind::Jester,
        Kind::Qball,
        Kind::HarfyBlob,
        Kind::Archer,
        Kind::Kamikaze,
        Kind::Bouncy,
        Kind::Demon,
        Kind::Tornado,
        Kind::Cantor,
    ];

    /// The letter the bot writes.
    pub fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Rook => 'R',
            Kind::Camel => 'C',
            Kind::Bishop => 'B',
            Kind::Pawn => 'P',
            Kind::CopyCat => 'O',
            Kind::Echo => 'E',
            Kind::Jester => 'J',
            Kind::Qball => 'Q',
            Kind::HarfyBlob => 'H',
            Kind::Archer => 'A',
            Kind::Kamikaze => 'Z',
            Kind::Bouncy => '!',
            Kind::Demon => 'D',
            Kind::Tornado => 'T',
            Kind::Cantor => '%',
        }
    }

    /// The type a letter names (case-insensitive).
    pub fn from_letter(c: char) -> Option<Kind> {
        let c = c.to_ascii_uppercase();
        Kind::ALL.into_iter().find(|k| k.letter() == c)
    }

    /// The material value.
    pub fn value(self) -> u32 {
        match self {
            Kind::King => 0,
            Kind::Rook => 9,
            Kind::Camel | Kind::Bouncy | Kind::Cantor => 5,
            Kind::Bishop | Kind::Kamikaze => 6,
            Kind::Pawn => 1,
            Kind::CopyCat | Kind::Echo | Kind::Qball | Kind::HarfyBlob | Kind::Archer => 7,
            Kind::Jester => 3,
            Kind::Demon => 2,
            Kind::Tornado => 11,
        }
    }

    /// The instance limit per Swinger, if any.
    pub fn limit(self) -> Option<usize> {
        match self {
            Kind::King | Kind::Tornado => Some(1),
            _ => None,
        }
    }

    /// The name players read.
    pub fn name(self) -> &'static str {
        match self {
            Kind::King => "King",
            Kind::Rook => "Rook",
            Kind::Camel => "Camel",
            Kind::Bishop => "Bishop",
            Kind::Pawn => "Pawn",
            Kind::CopyCat => "CopyCat",
            Kind::Echo => "Echo",
            Kind::Jester => "Jester",
            Kind::Qball => "Qball",
            Kind::HarfyBlob => "HarfyBlob",
            Kind::Archer => "Archer",
            Kind::Kamikaze => "Kamikaze",
            Kind::Bouncy => "Bouncy!Ball",
            Kind::Demon => "Demon",
            Kind::Tornado => "Tornado",
            Kind::Cantor => "Cantor",
        }
    }

    /// How it moves, in a few words (for `/pieces`).
    pub fn summary(self) -> &'static str {
        match self {
            Kind::King => "one square any way",
            Kind::Rook => "slides up to 10 orthogonally",
            Kind::Camel => "leaps (3,1), jumping",
            Kind::Bishop => "slides up to 10 diagonally",
            Kind::Pawn => "steps 1 orthogonally (2, lame, while it defends a friend); captures 1 diagonally; promotes on j10 j11 k10 k11; placed only on files a b s t or ranks 1 2 19 20",
            Kind::CopyCat => "moves exactly 3 or 5 along a line; captures a piece only by that piece's own capture rule",
            Kind::Echo => "moves as the piece its Swinger last moved (nothing after a Pass, Placement or Surrender)",
            Kind::Jester => "leaps exactly 2 any way, jumping",
            Kind::Qball => "slides diagonally to the edge, then 1-10 along the reflected diagonal; a corner scratches it",
            Kind::HarfyBlob => "slides any way up to its range Hn, which grows with its captures",
            Kind::Archer => "moves 4 in an L (1-4 then the rest perpendicular); shoots up to 4 orthogonally or 3 diagonally and stays",
            Kind::Kamikaze => "1-6 orthogonally then 1-6 perpendicular; destroyed when it captures",
            Kind::Bouncy => "along a line over exactly one piece standing at the midpoint",
            Kind::Demon => "one square inside f6-n14, else exactly two (lame); may promote inside the box of two friendly pieces of one type",
            Kind::Tornado => "slides up to 2; after each capture may slide again up to the victim's value, not in the same direction",
            Kind::Cantor => "leaps 1 or 2 diagonally; pieces next to it may also move 1-4 diagonally, jumping",
        }
    }

    /// The simple pieces' movement as Betza text (Party rules 3.2); `None` for the pieces whose
    /// rules are code of their own.
    pub fn betza(self) -> Option<&'static str> {
        match self {
            Kind::King => Some("K"),
            Kind::Rook => Some("R10"),
            Kind::Bishop => Some("B10"),
            Kind::Camel => Some("C"),
            Kind::Jester => Some("DA"),
            Kind::Cantor => Some("FA"),
            _ => None,
        }
    }
}

/// Letters that name no piece of the suite, with the reason (Party rules 3.2).
pub fn refused_letter(c: char) -> Option<&'static str> {
    match c.to_ascii_uppercase() {
        'M' => Some("il-Nabi (M) is not a piece you can pick: its rule 1230.12 gives it no moves"),
        _ => None,
    }
}

/// Why the Zombie is not a piece.
pub const ZOMBIE: &str = "the Zombie (1230.21) is not a piece you can pick: its letter Z is the Kamikaze's (1230.16, the earlier rule), so Z is the Kamikaze";

/// A type named by a letter or a word, or why not.
///
/// # Errors
/// The reason, for the user (il-Nabi and the Zombie name theirs).
pub fn parse_kind(text: &str) -> Result<Kind, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("zombie") {
        return Err(ZOMBIE.into());
    }
    if t.eq_ignore_ascii_case("il-nabi") || t.eq_ignore_ascii_case("nabi") {
        return Err(refused_letter('M').unwrap_or_default().into());
    }
    if let Some(k) = Kind::ALL.iter().find(|k| k.name().eq_ignore_ascii_case(t)) {
        return Ok(*k);
    }
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => {
            if let Some(r) = refused_letter(c) {
                return Err(r.into());
            }
            Kind::from_letter(c).ok_or_else(|| {
                format!(
                    "{c} is not a piece letter; the letters are K R C B P O E J Q H A Z ! D T %"
                )
            })
        }
        _ => Err(format!(
            "{t} is not a piece; the letters are K R C B P O E J Q H A Z ! D T %"
        )),
    }
}

/// A piece: its type, its Swinger's seat and its state (a HarfyBlob's range).
#[derive(
    Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, serde::Serialize, serde::Deserialize,
)]
pub struct Piece {
    /// The type.
    pub kind: Kind,
    /// The seat (1, 2, …).
    pub seat: u8,
    /// A HarfyBlob's range Hn (1 for a new one); 0 for the other types.
    pub hn: u8,
}

impl Piece {
    /// A new piece of a type for a seat (a HarfyBlob with range 1).
    pub fn new(kind: Kind, seat: u8) -> Piece {
        Piece {
            kind,
            seat,
            hn: u8::from(kind == Kind::HarfyBlob),
        }
    }

    /// The type with its state, as in hands: `R`, `{H:3}`.
    pub fn hand_text(self) -> String {
        match self.kind {
            Kind::HarfyBlob => format!("{{H:{}}}", self.hn),
            k => k.letter().to_string(),
        }
    }
}

/// How an Echo reads "the legal move of the friendly piece" its Swinger last moved
/// (Party rules 3.2, the game's `echo:` setting).
#[derive(
    Copy,
    Clone,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Debug,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum EchoRule {
    /// By that piece's rules (type and state), applied from the Echo's square: every move
    /// the piece could make from there.
    #[default]
    Rules,
    /// By that very move: only the plays of that piece's rules, from the Echo's square,
    /// whose displacement (Δfile, Δrank) from start to end is the one that piece made.
    Vector,
}

impl EchoRule {
    /// The setting's word: `rules`, `vector`.
    pub fn word(self) -> &'static str {
        match self {
            EchoRule::Rules => "rules",
            EchoRule::Vector => "vector",
        }
    }
    /// Reads `rules` or `vector` (any case).
    ///
    /// # Errors
    /// Another word, with the choices.
    pub fn parse(text: &str) -> Result<EchoRule, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "rules" => Ok(EchoRule::Rules),
            "vector" => Ok(EchoRule::Vector),
            other => Err(format!(
                "echo:{other} is not a setting; use echo:rules or echo:vector"
            )),
        }
    }
}

/// The rule a piece moves by: a type with its state (what an Echo copies), and under the
/// `vector` reading the displacement of the move it made.
#[derive(
    Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, serde::Serialize, serde::Deserialize,
)]
pub struct Src {
    /// The type (never an Echo).
    pub kind: Kind,
    /// The HarfyBlob's range.
    pub hn: u8,
    /// The move's displacement (Δfile, Δrank) from its start to its end (a stand-off
    /// capture's victim square, a scratch's corner): kept only under [`EchoRule::Vector`],
    /// `None` under the rules reading.
    pub vec: Option<(i8, i8)>,
}

impl Src {
    /// A source with no displacement (the rules reading).
    pub fn of(kind: Kind, hn: u8) -> Src {
        Src {
            kind,
            hn,
            vec: None,
        }
    }
    /// As the position text writes it: `R`, `H:2`, and under the vector reading the
    /// displacement with its signs, `R+0+5`, `H:2-3+3`.
    pub fn text(self) -> String {
        let base = match self.kind {
            Kind::HarfyBlob => format!("H:{}", self.hn),
            k => k.letter().to_string(),
        };
        match self.vec {
            Some((f, r)) => format!("{base}{f:+}{r:+}"),
            None => base,
        }
    }
}

/// The largest HarfyBlob range: the board's side less one (Party rules 3.2: above 20 it
/// becomes 19).
pub const MAX_HN: u8 = 19;

/// A HarfyBlob's range after growing by `by`.
pub fn grown(hn: u8, by: u8) -> u8 {
    let n = u32::from(hn) + u32::from(by);
    if n > 20 {
        MAX_HN
    } else {
        n as u8
    }
}

/// A simple piece's steps: (vector, most steps, whether it rides).
#[derive(Clone, Debug, Default)]
pub struct Steps {
    /// (file, rank) vector, how many steps at most (1 for a leaper), lame.
    pub rays: Vec<((i8, i8), u8, bool)>,
}

fn steps_of(m: &Movement) -> Steps {
    let mut rays = Vec::new();
    for a in &m.atoms {
        for &v in &a.vectors {
            let n = if a.rider {
                if a.range == 0 {
                    20
                } else {
                    a.range
                }
            } else {
                1
            };
            rays.push((v, n, a.lame));
        }
    }
    Steps { rays }
}

static SIMPLE: LazyLock<Vec<(Kind, Steps)>> = LazyLock::new(|| {
    Kind::ALL
        .iter()
        .filter_map(|&k| {
            let text = k.betza()?;
            match betza::parse(text) {
                Ok(m) => Some((k, steps_of(&m))),
                Err(e) => {
                    tracing::error!(%e, text, "a Party Chess piece's Betza text does not parse");
                    None
                }
            }
        })
        .collect()
});

/// The steps of a simple piece (King, Rook, Bishop, Camel, Jester, Cantor) from its Betza
/// data.
pub fn simple_steps(kind: Kind) -> Option<&'static Steps> {
    SIMPLE.iter().find(|(k, _)| *k == kind).map(|(_, s)| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_values_and_limits() {
        let letters: String = Kind::ALL.iter().map(|k| k.letter()).collect();
        assert_eq!(letters, "KRCBPOEJQHAZ!DT%");
        for k in Kind::ALL {
            assert_eq!(Kind::from_letter(k.letter()), Some(k));
            assert_eq!(Kind::from_letter(k.letter().to_ascii_lowercase()), Some(k));
        }
        let values: Vec<u32> = Kind::ALL.iter().map(|k| k.value()).collect();
        assert_eq!(values, [0, 9, 5, 6, 1, 7, 7, 3, 7, 7, 7, 6, 5, 2, 11, 5]);
        assert_eq!(Kind::King.limit(), Some(1));
        assert_eq!(Kind::Tornado.limit(), Some(1));
        assert_eq!(Kind::Rook.limit(), None);
    }

    #[test]
    fn nabi_and_zombie_are_refused_with_the_reason() {
        assert!(parse_kind("M").unwrap_err().contains("gives it no moves"));
        assert!(parse_kind("zombie").unwrap_err().contains("Kamikaze"));
        assert_eq!(parse_kind("z"), Ok(Kind::Kamikaze));
        assert_eq!(parse_kind("!"), Ok(Kind::Bouncy));
        assert!(parse_kind("X").is_err());
    }

    #[test]
    fn betza_data_of_the_simple_pieces() {
        let count = |k: Kind| simple_steps(k).map(|s| s.rays.len()).unwrap_or(0);
        assert_eq!(count(Kind::King), 8);
        assert_eq!(count(Kind::Rook), 4);
        assert_eq!(count(Kind::Bishop), 4);
        assert_eq!(count(Kind::Camel), 8);
        assert_eq!(count(Kind::Jester), 8);
        assert_eq!(count(Kind::Cantor), 8);
        let rook = simple_steps(Kind::Rook).expect("rook");
        assert!(rook.rays.iter().all(|&(_, n, _)| n == 10));
        assert!(simple_steps(Kind::Tornado).is_none());
    }

    #[test]
    fn harfy_range_caps_at_19() {
        assert_eq!(grown(1, 1), 2);
        assert_eq!(grown(18, 2), 20);
        assert_eq!(grown(19, 2), 19);
        assert_eq!(grown(19, 19), 19);
    }
}
