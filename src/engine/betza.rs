//! Piece movement in Betza-style notation, parsed from text.
//!
//! The dialect is the one of XBoard and Fairy-Stockfish, which the reference tables use:
//!
//! * **Atoms** (leapers): `W` (1,0), `F` (1,1), `D` (2,0), `N` (2,1), `A` (2,2), `H` (3,0),
//!   `C`/`L` (3,1), `Z`/`J` (3,2), `G` (3,3); compounds `K` = `WF`.
//! * **Riders**: `R` = `WW`, `B` = `FF`, `Q` = `RB`; any doubled atom (`NN`) rides; a number
//!   after an atom (`B4`, `W3`) makes it a rider limited to that many steps.
//! * **Directions** (before an atom), with "forward" meaning toward the opponent:
//!   `f` `b` `l` `r` select the moves that go at least as far in that direction as sideways
//!   (on a knight, `f` is the two narrow forward leaps); `v` = `fb`, `s` = `lr`;
//!   `fh` `bh` `lh` `rh` select every move gaining ground that way (`fhN`: the four forward
//!   knight leaps); on diagonal and oblique atoms a pair such as `fl` names one quadrant, and
//!   on oblique atoms `ff` (narrow forward), `fs` (wide forward) and the like name one pair.
//!   Letters combine by union: `fsR` is a rook going forward or sideways.
//! * **Modality**: `m` move only, `c` capture only, `e` may also capture en passant.
//! * **Conditions**: `i` only from the piece's own second rank (the pawn's double step),
//!   `n` lame (the squares passed over must be empty).

use std::fmt;

/// What a move may do on its destination square.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Modality {
    /// May move to an empty square.
    pub quiet: bool,
    /// May capture an enemy piece there.
    pub capture: bool,
    /// May capture en passant.
    pub en_passant: bool,
}

/// One ingredient of a piece's movement: a set of step vectors, leaped or ridden.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MoveAtom {
    /// Vectors (files, ranks) relative to the piece's owner: positive ranks are forward.
    pub vectors: Vec<(i8, i8)>,
    /// Whether the piece slides repeatedly along each vector.
    pub rider: bool,
    /// For riders, the most steps allowed (0 = unlimited).
    pub range: u8,
    /// What the move may do.
    pub modality: Modality,
    /// Only from the piece's own second rank.
    pub initial: bool,
    /// The squares passed over must be empty.
    pub lame: bool,
}

/// A piece's movement: the union of its atoms.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Movement {
    /// The atoms, in the order written.
    pub atoms: Vec<MoveAtom>,
}

/// A malformed Betza string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BetzaError {
    /// The string has no atom.
    #[error("movement `{0}` is empty")]
    Empty(String),
    /// A character that is not a modifier or atom.
    #[error("movement `{text}`: unexpected `{ch}` at position {pos}")]
    Unexpected {
        /// The whole text.
        text: String,
        /// The character.
        ch: char,
        /// Its index.
        pos: usize,
    },
    /// Modifiers with no atom after them.
    #[error("movement `{0}` ends with modifiers but no atom")]
    DanglingModifiers(String),
    /// The direction letters select no move of the atom.
    #[error("movement `{text}`: directions `{dirs}` select no move of {atom}")]
    NoDirections {
        /// The whole text.
        text: String,
        /// The direction letters.
        dirs: String,
        /// The atom.
        atom: char,
    },
}

fn base_vector(atom: char) -> Option<(i8, i8)> {
    Some(match atom {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' | 'L' => (3, 1),
        'Z' | 'J' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// All eight (or four) symmetric images of a vector.
fn symmetric(v: (i8, i8)) -> Vec<(i8, i8)> {
    let (a, b) = v;
    let mut out: Vec<(i8, i8)> = Vec::with_capacity(8);
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let w = (x * sx, y * sy);
                if !out.contains(&w) {
                    out.push(w);
                }
            }
        }
    }
    out
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Shape {
    Orthogonal,
    Diagonal,
    Oblique,
}

fn shape(v: (i8, i8)) -> Shape {
    if v.0 == 0 || v.1 == 0 {
        Shape::Orthogonal
    } else if v.0.abs() == v.1.abs() {
        Shape::Diagonal
    } else {
        Shape::Oblique
    }
}

/// A direction predicate on vectors.
#[derive(Copy, Clone, Debug)]
enum Spec {
    Single(char),
    Half(char),
    Quadrant(char, char),
    Wide(char),
    Narrow(char),
}

fn dominant(c: char, x: i32, y: i32) -> bool {
    match c {
        'f' => y > 0 && y.abs() >= x.abs(),
        'b' => y < 0 && y.abs() >= x.abs(),
        'l' => x < 0 && x.abs() >= y.abs(),
        'r' => x > 0 && x.abs() >= y.abs(),
        'v' => dominant('f', x, y) || dominant('b', x, y),
        's' => dominant('l', x, y) || dominant('r', x, y),
        _ => false,
    }
}

fn half(c: char, x: i32, y: i32) -> bool {
    match c {
        'f' => y > 0,
        'b' => y < 0,
        'l' => x < 0,
        'r' => x > 0,
        _ => false,
    }
}

impl Spec {
    fn matches(self, v: (i8, i8)) -> bool {
        let (x, y) = (v.0 as i32, v.1 as i32);
        match self {
            Spec::Single(c) => dominant(c, x, y),
            Spec::Half(c) => half(c, x, y),
            Spec::Quadrant(a, b) => half(a, x, y) && half(b, x, y),
            // fs / bs: forward (backward) moves that go further sideways than forward;
            // lv / rv: left (right) moves that go further vertically than sideways.
            Spec::Wide(c) => match c {
                'f' | 'b' => half(c, x, y) && x.abs() > y.abs(),
                _ => half(c, x, y) && y.abs() > x.abs(),
            },
            Spec::Narrow(c) => dominant(c, x, y),
        }
    }
}

fn tokenize(dirs: &[char], sh: Shape) -> Vec<Spec> {
    let mut specs = Vec::new();
    let mut i = 0;
    while i < dirs.len() {
        let c = dirs[i];
        let next = dirs.get(i + 1).copied();
        let fbl = |c: char| matches!(c, 'f' | 'b');
        let lr = |c: char| matches!(c, 'l' | 'r');
        match next {
            Some('h') if fbl(c) || lr(c) => {
                specs.push(Spec::Half(c));
                i += 2;
            }
            Some(n) if sh != Shape::Orthogonal && ((fbl(c) && lr(n)) || (lr(c) && fbl(n))) => {
                specs.push(Spec::Quadrant(c, n));
                i += 2;
            }
            Some(n) if sh == Shape::Oblique && n == c && (fbl(c) || lr(c)) => {
                specs.push(Spec::Narrow(c));
                i += 2;
            }
            Some(n) if sh == Shape::Oblique && ((fbl(c) && n == 's') || (lr(c) && n == 'v')) => {
                specs.push(Spec::Wide(c));
                i += 2;
            }
            _ => {
                if c != 'h' {
                    specs.push(Spec::Single(c));
                }
                i += 1;
            }
        }
    }
    specs
}

/// Parses a Betza-style movement string.
///
/// # Errors
/// A [`BetzaError`] naming the offending character.
///
/// # Examples
/// ```
/// let m = arbiter::engine::betza::parse("fhNbB").unwrap();
/// assert_eq!(m.atoms.len(), 2);
/// assert_eq!(m.atoms[0].vectors.len(), 4);
/// ```
pub fn parse(text: &str) -> Result<Movement, BetzaError> {
    let chars: Vec<char> = text.chars().collect();
    let mut atoms = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let mut dirs: Vec<char> = Vec::new();
        let mut modality = Modality::default();
        let mut initial = false;
        let mut lame = false;
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            match chars[i] {
                'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'h' => dirs.push(chars[i]),
                'm' => modality.quiet = true,
                'c' => modality.capture = true,
                'e' => modality.en_passant = true,
                'i' => initial = true,
                'n' => lame = true,
                ch => {
                    return Err(BetzaError::Unexpected {
                        text: text.into(),
                        ch,
                        pos: i,
                    })
                }
            }
            i += 1;
        }
        if i >= chars.len() {
            return Err(BetzaError::DanglingModifiers(text.into()));
        }
        if !modality.quiet && !modality.capture {
            modality.quiet = true;
            modality.capture = true;
        }
        let atom = chars[i];
        i += 1;
        // Components: (base vector, rider?)
        let mut comps: Vec<((i8, i8), bool)> = match atom {
            'K' => vec![((1, 0), false), ((1, 1), false)],
            'R' => vec![((1, 0), true)],
            'B' => vec![((1, 1), true)],
            'Q' => vec![((1, 0), true), ((1, 1), true)],
            a => match base_vector(a) {
                Some(v) => vec![(v, false)],
                None => {
                    return Err(BetzaError::Unexpected {
                        text: text.into(),
                        ch: a,
                        pos: i - 1,
                    })
                }
            },
        };
        // Doubled atom: a rider (NN, WW).
        if i < chars.len() && chars[i] == atom && base_vector(atom).is_some() {
            i += 1;
            for c in &mut comps {
                c.1 = true;
            }
        }
        let mut range = 0u8;
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if i > start {
            let digits: String = chars[start..i].iter().collect();
            range = digits.parse().map_err(|_| BetzaError::Unexpected {
                text: text.into(),
                ch: chars[start],
                pos: start,
            })?;
            for c in &mut comps {
                c.1 = true;
            }
        }
        let mut any = false;
        for (base, rider) in comps {
            let sh = shape(base);
            let specs = tokenize(&dirs, sh);
            let vectors: Vec<(i8, i8)> = symmetric(base)
                .into_iter()
                .filter(|&v| specs.is_empty() || specs.iter().any(|s| s.matches(v)))
                .collect();
            if vectors.is_empty() {
                continue;
            }
            any = true;
            atoms.push(MoveAtom {
                vectors,
                rider,
                range: if rider { range } else { 0 },
                modality,
                initial,
                lame,
            });
        }
        if !any {
            return Err(BetzaError::NoDirections {
                text: text.into(),
                dirs: dirs.iter().collect(),
                atom,
            });
        }
    }
    if atoms.is_empty() {
        return Err(BetzaError::Empty(text.into()));
    }
    Ok(Movement { atoms })
}

impl fmt::Display for Modality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.quiet, self.capture) {
            (true, false) => f.write_str("m")?,
            (false, true) => f.write_str("c")?,
            _ => {}
        }
        if self.en_passant {
            f.write_str("e")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vecs(text: &str) -> Vec<(i8, i8)> {
        let mut v: Vec<(i8, i8)> = parse(text)
            .unwrap()
            .atoms
            .iter()
            .flat_map(|a| a.vectors.clone())
            .collect();
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn knight_directions() {
        assert_eq!(vecs("N").len(), 8);
        assert_eq!(vecs("fhN"), vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        assert_eq!(vecs("bhN"), vec![(-2, -1), (-1, -2), (1, -2), (2, -1)]);
        assert_eq!(vecs("fN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(vecs("vN"), vec![(-1, -2), (-1, 2), (1, -2), (1, 2)]);
        assert_eq!(vecs("fsN"), vec![(-2, 1), (2, 1)]);
    }

    #[test]
    fn king_and_rook_directions() {
        assert_eq!(vecs("bK"), vec![(-1, -1), (0, -1), (1, -1)]);
        assert_eq!(vecs("fsR"), vec![(-1, 0), (0, 1), (1, 0)]);
        assert_eq!(vecs("sW"), vec![(-1, 0), (1, 0)]);
        assert_eq!(vecs("fB"), vec![(-1, 1), (1, 1)]);
        assert_eq!(vecs("flF"), vec![(-1, 1)]);
    }

    #[test]
    fn ranges_and_modality() {
        let m = parse("B4N").unwrap();
        assert!(m.atoms[0].rider && m.atoms[0].range == 4);
        assert!(!m.atoms[1].rider);
        let p = parse("fmWfceFifmnD").unwrap();
        assert!(p.atoms[0].modality.quiet && !p.atoms[0].modality.capture);
        assert!(p.atoms[1].modality.capture && p.atoms[1].modality.en_passant);
        assert!(!p.atoms[1].modality.quiet);
        assert!(p.atoms[2].initial && p.atoms[2].lame);
        let nn = parse("NN").unwrap();
        assert!(nn.atoms[0].rider && nn.atoms[0].range == 0);
    }

    #[test]
    fn errors() {
        assert!(parse("").is_err());
        assert!(parse("fx").is_err());
        assert!(parse("f").is_err());
        assert!(parse("Y").is_err());
        assert!(parse("flW").is_ok());
    }
}
