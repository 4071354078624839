//! Plays as players write them (shared rules 0.1; Party rules 3.2, 3.5): `Rc3-c9`, `Ae5xe9`,
//! `j9-j10=R`, `Te5xf6xf7xl7`, `Qe5-d12` (or `Qe5-a9-d12`), `R@c5`, `{H:3}@c5`, `pass`,
//! `surrender`, a Demon's promotion `Dh9-i9=H` or as a suffix `Rc3-c9 Di8=H`.

use std::collections::BTreeMap;

use super::board::{Position, Sq};
use super::piece::{Kind, Piece};
use super::rules::{
    apply, attacks, demon_may_promote, exposes, in_check, legal_placements, legal_plays,
    placement_problem, promotion_targets, seat_moves, Mv, Play,
};

fn letter_of(pos: &Position, sq: Sq) -> String {
    match pos.at(sq) {
        Some(p) if p.kind == Kind::Pawn => String::new(),
        Some(p) => p.kind.letter().to_string(),
        None => String::new(),
    }
}

/// A move in notation; `bounce` writes a Qball's bounce square.
pub fn format_mv(pos: &Position, m: &Mv, bounce: bool) -> String {
    let mut s = format!("{}{}", letter_of(pos, m.from), m.from.name());
    for c in &m.chain {
        s.push_str(&format!("x{}", c.name()));
    }
    if bounce {
        if let Some(b) = m.bounce {
            s.push_str(&format!("-{}", b.name()));
        }
    }
    s.push(if m.capture { 'x' } else { '-' });
    s.push_str(&m.to.name());
    if let Some(k) = m.promo {
        s.push('=');
        s.push(k.letter());
    }
    let mover_demon = pos.at(m.from).is_some_and(|p| p.kind == Kind::Demon);
    for &(d, k) in &m.demons {
        if mover_demon && d == m.to && !m.standoff {
            s.push('=');
            s.push(k.letter());
        } else {
            s.push_str(&format!(" D{}={}", d.name(), k.letter()));
        }
    }
    s
}

/// A play in notation (without a check mark).
pub fn format(pos: &Position, play: &Play) -> String {
    match play {
        Play::Move(m) => format_mv(pos, m, false),
        Play::Place { piece, to } => format!("{}@{}", piece.kind.letter(), to.name()),
        Play::Pass => "pass".into(),
        Play::Surrender => "surrender".into(),
    }
}

/// A play in notation that reads back to itself: as [`format()`], with a Qball's bounce square
/// written when the text without it would read another way (two bounces reach one square).
pub fn format_exact(pos: &Position, play: &Play) -> String {
    let plain = format(pos, play);
    match play {
        Play::Move(m) if m.bounce.is_some() => {
            let same = matches!(resolve(pos, &plain), Ok(Play::Move(r)) if r.bounce == m.bounce);
            if same {
                plain
            } else {
                format_mv(pos, m, true)
            }
        }
        _ => plain,
    }
}

/// Whether a play by the seat to play gives check itself: after it, one of the mover's own
/// pieces attacks another Swinger's King (a King left attacked by a third Swinger's piece,
/// from an earlier play or a line the play opened, is reported on the "In check" line, not
/// as the play's `+`).
pub fn gives_check(pos: &Position, play: &Play) -> bool {
    let Some(seat) = pos.to_play() else {
        return false;
    };
    let mut after = pos.clone();
    apply(&mut after, seat, play);
    let mine: Vec<Sq> = after.pieces_of(seat).map(|(s, _)| s).collect();
    after.seats().into_iter().any(|s| {
        s != seat
            && after
                .king(s)
                .is_some_and(|k| mine.iter().any(|&from| attacks(&after, from, k, false)))
    })
}

/// Texts for a list of plays: a Qball's bounce written only where two plays would read the
/// same without it.
fn texts(pos: &Position, plays: &[Play]) -> Vec<String> {
    let plain: Vec<String> = plays.iter().map(|p| format(pos, p)).collect();
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for t in &plain {
        *count.entry(t.as_str()).or_default() += 1;
    }
    plays
        .iter()
        .zip(&plain)
        .map(|(p, t)| match p {
            Play::Move(m) if count.get(t.as_str()).copied().unwrap_or(0) > 1 => {
                format_mv(pos, m, true)
            }
            _ => t.clone(),
        })
        .collect()
}

/// Every legal play of the seat to play in notation, sorted, each once.
pub fn legal_texts(pos: &Position) -> Vec<String> {
    let plays = legal_plays(pos);
    let mut v = texts(pos, &plays);
    v.sort();
    v.dedup();
    v
}

/// A play as read from text, before it is matched against the legal plays.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Parsed {
    Pass,
    Surrender,
    Place {
        kind: Kind,
        hn: Option<u8>,
        to: Sq,
    },
    Move {
        letter: Option<Kind>,
        squares: Vec<Sq>,
        promo: Option<Kind>,
        demons: Vec<(Sq, Kind)>,
    },
}

fn kind_letter(c: char) -> Result<Kind, String> {
    if let Some(r) = super::piece::refused_letter(c) {
        return Err(r.to_string());
    }
    Kind::from_letter(c).ok_or_else(|| format!("{c} is not a piece letter"))
}

fn parse_square(t: &str) -> Result<Sq, String> {
    Sq::parse(t).ok_or_else(|| format!("{t} is not a square of the Party Board (a1 to t20)"))
}

/// Whether `text` reads as a play (its squares on the Party Board), without a position.
///
/// # Errors
/// Why not.
pub fn read(text: &str) -> Result<(), String> {
    parse(text).map(|_| ())
}

fn parse(text: &str) -> Result<Parsed, String> {
    let mut t = text.trim().to_string();
    while t.len() > 1 && t.ends_with(['+', '#', '?', '!']) && !t[..t.len() - 1].ends_with('=') {
        t.pop();
    }
    let mut words = t.split_whitespace();
    let main = words.next().ok_or("an empty play")?;
    let lower = main.to_ascii_lowercase();
    if lower == "pass" && words.clone().next().is_none() {
        return Ok(Parsed::Pass);
    }
    if lower == "surrender" && words.clone().next().is_none() {
        return Ok(Parsed::Surrender);
    }
    let mut demons = Vec::new();
    for w in words {
        let w = w.trim_end_matches(['+', '#', '?', '!']);
        let body = w
            .strip_prefix('D')
            .or_else(|| w.strip_prefix('d'))
            .ok_or_else(|| format!("{w}: after the play only Demon promotions follow (Di8=H)"))?;
        let (sq, k) = body
            .split_once('=')
            .ok_or_else(|| format!("{w}: a Demon promotion is D<square>=<letter>"))?;
        let mut kc = k.chars();
        let kind = kind_letter(kc.next().ok_or("a promotion needs a letter")?)?;
        demons.push((parse_square(sq)?, kind));
    }
    if let Some((piece, sq)) = main.split_once('@') {
        let to = parse_square(sq)?;
        let (kind, hn) = if let Some(inner) = piece.strip_prefix('{') {
            let inner = inner.trim_end_matches('}');
            match inner.split_once(':') {
                Some((l, n)) => {
                    let k = kind_letter(l.chars().next().unwrap_or(' '))?;
                    let n: u8 = n
                        .parse()
                        .map_err(|_| format!("{n} is not a HarfyBlob range"))?;
                    (k, Some(n))
                }
                None => (kind_letter(inner.chars().next().unwrap_or(' '))?, None),
            }
        } else {
            let mut cs = piece.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => (kind_letter(c)?, None),
                (None, _) => (Kind::Pawn, None),
                _ => return Err(format!("{piece}: a placement is <letter>@<square> (R@c5)")),
            }
        };
        return Ok(Parsed::Place { kind, hn, to });
    }
    let chars: Vec<char> = main.chars().collect();
    let (letter, rest) = match chars.first() {
        Some('!') | Some('%') => (Some(kind_letter(chars[0])?), &main[1..]),
        Some(c)
            if c.is_ascii_alphabetic() && chars.get(1).is_some_and(|c| c.is_ascii_alphabetic()) =>
        {
            (Some(kind_letter(*c)?), &main[1..])
        }
        _ => (None, main),
    };
    let (body, promo) = match rest.split_once('=') {
        Some((b, p)) => {
            let c = p.chars().next().ok_or("= needs a piece letter")?;
            (b, Some(kind_letter(c)?))
        }
        None => (rest, None),
    };
    let squares = body
        .split(['-', 'x', 'X'])
        .map(parse_square)
        .collect::<Result<Vec<_>, _>>()?;
    if squares.len() < 2 {
        return Err(format!(
            "{text}: write a move as Rc3-c9, a capture as Rc3xc9, a placement as R@c5, or pass / surrender"
        ));
    }
    Ok(Parsed::Move {
        letter,
        squares,
        promo,
        demons,
    })
}

/// Finds the legal play of the seat to play that `text` names.
///
/// # Errors
/// What is wrong, with what would be accepted (the piece's legal plays, the promotion
/// choices, or why a placement is refused).
pub fn resolve(pos: &Position, text: &str) -> Result<Play, String> {
    let seat = pos.to_play().ok_or("nobody is to play")?;
    if let Some(why) = promotion_not_after_a_move(pos, seat, text) {
        return Err(why);
    }
    if let Some(lower) = lower_case_squares(text) {
        return Err(format!("square letters are lower case: {lower}"));
    }
    if let Some(hint) = short_algebraic(pos, seat, text) {
        return Err(hint);
    }
    match parse(text)? {
        Parsed::Pass => {
            if in_check(pos, seat) {
                Err("you may not pass while in check (move out of check, or surrender)".into())
            } else {
                Ok(Play::Pass)
            }
        }
        Parsed::Surrender => Ok(Play::Surrender),
        Parsed::Place { kind, hn, to } => {
            let held: Vec<Piece> = pos
                .hand(seat)
                .iter()
                .copied()
                .filter(|p| p.kind == kind && hn.is_none_or(|h| p.hn == h))
                .collect();
            let Some(piece) = held.iter().copied().max_by_key(|p| p.hn) else {
                return Err(format!(
                    "you hold no {} off the board (yours: {})",
                    match hn {
                        Some(h) => format!("HarfyBlob of range {h}"),
                        None => kind.name().to_string(),
                    },
                    hand_list(pos, seat)
                ));
            };
            if let Some(why) = placement_problem(pos, seat, piece, to) {
                return Err(why);
            }
            let play = Play::Place { piece, to };
            if exposes(pos, seat, &play) {
                return Err(format!(
                    "{}@{} would leave your King attacked",
                    kind.letter(),
                    to.name()
                ));
            }
            Ok(play)
        }
        Parsed::Move {
            letter,
            squares,
            promo,
            demons,
        } => resolve_move(pos, seat, text, letter, &squares, promo, &demons),
    }
}

/// The text with its square letters in lower case, when some were written in upper case
/// (`E2-E4`, `RC3-C9`): a file letter is followed by a digit, a piece letter never is.
fn lower_case_squares(text: &str) -> Option<String> {
    let chars: Vec<char> = text.trim().chars().collect();
    let mut out = String::new();
    let mut changed = false;
    for (i, &c) in chars.iter().enumerate() {
        let file = ('A'..='T').contains(&c) && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        if file {
            out.push(c.to_ascii_lowercase());
            changed = true;
        } else {
            out.push(c);
        }
    }
    changed.then_some(out)
}

/// A move written as its destination only (`e4`, `Rc9`): the long form of the one piece
/// that can move there, or how to write it.
fn short_algebraic(pos: &Position, seat: u8, text: &str) -> Option<String> {
    let t = text.trim().trim_end_matches(['+', '#', '?', '!']);
    if t.contains([' ', '-', 'x', 'X', '@', '=']) || t.is_empty() {
        return None;
    }
    let (letter, square) = match Sq::parse(t) {
        Some(sq) => (None, sq),
        None => {
            let mut cs = t.chars();
            let first = cs.next()?;
            let sq = Sq::parse(cs.as_str())?;
            (Some(Kind::from_letter(first)?), sq)
        }
    };
    let plays: Vec<Play> = legal_plays(pos)
        .into_iter()
        .filter(|p| match p {
            Play::Move(m) => {
                m.to == square
                    && !m.scratch
                    && letter.is_none_or(|k| pos.at(m.from).is_some_and(|q| q.kind == k))
                    && pos.at(m.from).is_some_and(|q| q.seat == seat)
            }
            _ => false,
        })
        .collect();
    let mut froms: Vec<Sq> = plays
        .iter()
        .filter_map(|p| match p {
            Play::Move(m) => Some(m.from),
            _ => None,
        })
        .collect();
    froms.sort();
    froms.dedup();
    if froms.len() == 1 {
        let mut list = texts(pos, &plays);
        list.sort_by_key(|t| (t.len(), t.clone()));
        if let Some(first) = list.first() {
            return Some(format!("write the move from-to: {first}"));
        }
    }
    Some("write the move from-to, like e2-e4".into())
}

/// The types a seat's Demon could promote to after a move (the limits applied).
fn demon_choices(pos: &Position, seat: u8) -> String {
    let v: Vec<String> = promotion_targets(pos, seat, true)
        .iter()
        .map(|k| k.letter().to_string())
        .collect();
    v.join(" ")
}

/// A Demon promotion written after a Placement, a Pass or a Surrender: refused whole, with
/// the reason (Demons promote only after their controller's Move or Capture).
fn promotion_not_after_a_move(pos: &Position, seat: u8, text: &str) -> Option<String> {
    let mut words = text.split_whitespace();
    let main = words.next()?;
    let suffix: Vec<&str> = words.collect();
    let lower = main.to_ascii_lowercase();
    let what = if main.contains('@') {
        "a Placement"
    } else if lower == "pass" {
        "a Pass"
    } else if lower == "surrender" {
        "a Surrender"
    } else {
        return None;
    };
    if suffix.is_empty() {
        return None;
    }
    Some(format!(
        "{}: Demons promote only after a Move or Capture, not after {what}; play {main} alone, or promote with a move (like Rc3-c9 Di8=H) to one of: {}",
        text.trim(),
        demon_choices(pos, seat)
    ))
}

fn hand_list(pos: &Position, seat: u8) -> String {
    let h: String = pos.hand(seat).iter().map(|p| p.hand_text()).collect();
    if h.is_empty() {
        "none".into()
    } else {
        h
    }
}

#[allow(clippy::too_many_arguments)]
fn resolve_move(
    pos: &Position,
    seat: u8,
    text: &str,
    letter: Option<Kind>,
    squares: &[Sq],
    promo: Option<Kind>,
    demons: &[(Sq, Kind)],
) -> Result<Play, String> {
    let from = squares[0];
    let to = squares[squares.len() - 1];
    let middle = &squares[1..squares.len() - 1];
    let Some(piece) = pos.at(from) else {
        return Err(format!("there is no piece on {}", from.name()));
    };
    if piece.seat != seat {
        return Err(format!("the piece on {} is not yours", from.name()));
    }
    if let Some(l) = letter {
        if l != piece.kind && !(l == Kind::Pawn && piece.kind == Kind::Pawn) {
            return Err(format!(
                "the piece on {} is a {}, not a {}",
                from.name(),
                piece.kind.name(),
                l.name()
            ));
        }
    }
    let all: Vec<Mv> = seat_moves(pos, seat)
        .into_iter()
        .filter(|m| m.from == from)
        .collect();
    let legal: Vec<Mv> = all
        .iter()
        .filter(|m| !exposes(pos, seat, &Play::Move((*m).clone())))
        .cloned()
        .collect();
    let shape = |m: &Mv| {
        m.to == to
            && (middle.is_empty()
                || middle == m.chain.as_slice()
                || (m.bounce.is_some() && middle == [m.bounce.unwrap_or(m.to)]))
            && (!middle.is_empty() || m.chain.is_empty())
    };
    let pawn_promo = piece.kind == Kind::Pawn;
    let mut found: Vec<Mv> = all
        .iter()
        .filter(|m| shape(m))
        .filter(|m| !pawn_promo || m.promo == promo || (m.promo.is_none() && promo.is_none()))
        .cloned()
        .collect();
    if found.is_empty() {
        let promos: Vec<String> = all
            .iter()
            .filter(|m| shape(m) && m.promo.is_some())
            .filter_map(|m| m.promo.map(|k| format!("={}", k.letter())))
            .collect();
        if pawn_promo && !promos.is_empty() {
            return Err(format!(
                "a Pawn reaching {} promotes: add the new type ({})",
                to.name(),
                promos.join(" ")
            ));
        }
        return Err(not_legal(pos, text, piece, &legal));
    }
    // A Demon moving and promoting itself: `Dh9-i9=H`.
    let mut demons = demons.to_vec();
    if piece.kind == Kind::Demon {
        if let Some(k) = promo {
            demons.insert(0, (to, k));
        }
    } else if !pawn_promo && promo.is_some() {
        return Err(format!("a {} does not promote", piece.kind.name()));
    }
    if !demons.is_empty() {
        for m in &mut found {
            m.demons = demons.clone();
        }
        let probe = &found[0];
        let mut after = pos.clone();
        let mut bare = probe.clone();
        bare.demons.clear();
        apply(&mut after, seat, &Play::Move(bare));
        let mut seen = Vec::new();
        for &(d, k) in &demons {
            if seen.contains(&d) {
                return Err(format!("the Demon on {} promotes once", d.name()));
            }
            seen.push(d);
            if !after
                .at(d)
                .is_some_and(|p| p.kind == Kind::Demon && p.seat == seat)
            {
                return Err(format!("you have no Demon on {} after this move", d.name()));
            }
            if !demon_may_promote(&after, d, seat) {
                return Err(format!(
                    "the Demon on {} may not promote: it is not strictly inside the box of two other friendly pieces of one type at most 10 apart (inside one it could become: {})",
                    d.name(),
                    demon_choices(&after, seat)
                ));
            }
            if !promotion_targets(&after, seat, true).contains(&k) {
                let why = match k.limit() {
                    _ if k == Kind::Demon => "a Demon does not promote to a Demon".to_string(),
                    Some(l) => format!("you own a {} already (the limit is {l})", k.name()),
                    None => format!("a Demon does not promote to a {}", k.name()),
                };
                return Err(format!(
                    "the Demon on {} may not promote to a {}: {why}; it may become: {}",
                    d.name(),
                    k.name(),
                    demon_choices(&after, seat)
                ));
            }
            after.set(d, Some(Piece::new(k, seat)));
        }
    }
    let legal_found: Vec<Mv> = found
        .into_iter()
        .filter(|m| !exposes(pos, seat, &Play::Move(m.clone())))
        .collect();
    match legal_found.len() {
        0 => Err(format!("{} would leave your King attacked", text.trim())),
        1 => Ok(Play::Move(legal_found[0].clone())),
        _ => {
            // Two readings: the own rule wins over a lent one written the same; two Qball
            // bounces are ambiguous.
            let own: Vec<&Mv> = legal_found.iter().filter(|m| !m.lent).collect();
            let bounces: Vec<Option<Sq>> = own.iter().map(|m| m.bounce).collect();
            if own.len() > 1 && bounces.iter().any(Option::is_some) && bounces[0] != bounces[1] {
                let both: Vec<String> = own.iter().map(|m| format_mv(pos, m, true)).collect();
                return Err(format!(
                    "{} reads two ways: write the bounce ({})",
                    text.trim(),
                    both.join(" or ")
                ));
            }
            Ok(Play::Move(
                own.first()
                    .map(|m| (*m).clone())
                    .unwrap_or_else(|| legal_found[0].clone()),
            ))
        }
    }
}

fn not_legal(pos: &Position, text: &str, piece: Piece, legal: &[Mv]) -> String {
    let plays: Vec<Play> = legal.iter().cloned().map(Play::Move).collect();
    let mut list = texts(pos, &plays);
    list.sort();
    list.dedup();
    if list.is_empty() {
        format!(
            "{} is not legal: your {} has no legal move",
            text.trim(),
            piece.kind.name()
        )
    } else {
        format!(
            "{} is not legal: your {} can play: {}",
            text.trim(),
            piece.kind.name(),
            list.join(" ")
        )
    }
}

/// The legal placement squares of one type for the seat to play, as `X@sq`, sorted.
pub fn placement_texts(pos: &Position, kind: Kind) -> Vec<String> {
    let Some(seat) = pos.to_play() else {
        return Vec::new();
    };
    let mut v: Vec<String> = legal_placements(pos, seat)
        .into_iter()
        .filter(|(p, _)| p.kind == kind)
        .map(|(p, to)| format!("{}@{}", p.kind.letter(), to.name()))
        .collect();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::party::rules::tests::pos;

    #[test]
    fn formats_and_reads_back_every_legal_play() {
        let mut p = pos("a1=K1 e5=T1 f6=P2 f7=J2 j9=P1 c3=Q1 t20=K2 h9=D1", 2);
        p.give(1, Piece::new(Kind::Rook, 1));
        p.give(1, Piece::new(Kind::HarfyBlob, 1));
        for t in legal_texts(&p) {
            let play = resolve(&p, &t).unwrap_or_else(|e| panic!("{t}: {e}"));
            let again = texts(&p, std::slice::from_ref(&play));
            assert!(
                again[0] == t || format_mv_plain(&p, &play) == t,
                "{t} read back as {again:?}"
            );
        }
    }

    fn format_mv_plain(p: &Position, play: &Play) -> String {
        match play {
            Play::Move(m) => format_mv(p, m, true),
            other => format(p, other),
        }
    }

    #[test]
    fn tornado_chain_and_capture_written_with_dash() {
        let p = pos("a1=K1 e5=T1 f6=P2 f7=J2 t20=K2", 2);
        let Play::Move(m) = resolve(&p, "Te5xf6xf7-c7").expect("chain") else {
            panic!("a move")
        };
        assert_eq!(
            m.chain,
            vec![Sq::parse("f6").expect("f6"), Sq::parse("f7").expect("f7")]
        );
        assert!(!m.capture && m.captures());
        assert!(resolve(&p, "te5-f6").is_ok(), "lower case letter, - for x");
        assert!(resolve(&p, "Te5xf6xf7+").is_ok());
    }

    #[test]
    fn promotion_needs_its_choice() {
        let p = pos("a1=K1 j9=P1 t20=K2", 2);
        let e = resolve(&p, "j9-j10").unwrap_err();
        assert!(e.contains("=R"), "{e}");
        assert!(resolve(&p, "j9-j10=R").is_ok());
        assert!(resolve(&p, "j9-j10=P").is_err());
        assert!(
            resolve(&p, "j9-j10=K").is_err(),
            "a King only when owning none"
        );
        let e = resolve(&p, "j9-j10=M").unwrap_err();
        assert!(e.contains("no moves"), "{e}");
    }

    #[test]
    fn demon_promotions_as_suffix_or_self() {
        let p = pos("a1=K1 h8=D1 g6=R1 k10=R1 t1=R1 t20=K2", 2);
        assert!(resolve(&p, "Rt1-t2 Dh8=H").is_ok());
        assert!(resolve(&p, "Dh8-h9=H").is_ok());
        assert!(resolve(&p, "Dh8-g8=H").is_err(), "g8 is on the box's edge");
        assert!(resolve(&p, "Dh8-i9=B").is_ok());
        assert!(resolve(&p, "Rt1-t2 Dh8=D").is_err());
        // The box must hold after the move.
        assert!(resolve(&p, "Rg6-g5 Dh8=H").is_ok());
        assert!(resolve(&p, "Rk10-k8 Dh8=H").is_err());
    }

    #[test]
    fn placements_read_and_refuse() {
        let mut p = pos("a1=K1 t20=K2", 2);
        p.give(1, Piece::new(Kind::Rook, 1));
        let mut h = Piece::new(Kind::HarfyBlob, 1);
        h.hn = 3;
        p.give(1, h);
        p.give(1, Piece::new(Kind::HarfyBlob, 1));
        assert!(resolve(&p, "R@c5").is_ok());
        assert!(resolve(&p, "r@c5").is_ok());
        let e = resolve(&p, "R@t15").unwrap_err();
        assert!(e.contains("attack"), "{e}");
        assert!(resolve(&p, "B@c5").is_err());
        let Ok(Play::Place { piece, .. }) = resolve(&p, "H@e5") else {
            panic!("placed")
        };
        assert_eq!(piece.hn, 3, "the highest range");
        let Ok(Play::Place { piece, .. }) = resolve(&p, "{H:1}@e5") else {
            panic!("placed")
        };
        assert_eq!(piece.hn, 1);
        assert!(resolve(&p, "{H:2}@e5").is_err());
    }

    #[test]
    fn bouncy_notation_keeps_the_leading_mark() {
        let p = pos("a1=K1 e5=!1 e7=P1 t20=K2", 2);
        assert!(resolve(&p, "!e5-e9").is_ok());
        assert!(resolve(&p, "!e5-e9!").is_ok());
    }

    #[test]
    fn refusals_list_the_piece_moves() {
        let p = pos("a1=K1 t20=K2", 2);
        let e = resolve(&p, "Ka1-a3").unwrap_err();
        assert!(e.contains("can play: Ka1-a2 Ka1-b1 Ka1-b2"), "{e}");
        assert!(resolve(&p, "Kt20-t19").unwrap_err().contains("not yours"));
    }
}
