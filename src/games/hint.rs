//! Hints for moves written in a form the games do not read (issue 39; shared rules 0.1): square
//! letters in upper case (`E2-E4`), short algebraic (`e4`, `Nf3`), and the check-first line of a
//! refusal while the mover's King is attacked. Shared by the games that refuse through the
//! common notation: each passes the moves it offers, written as `/move` accepts them.

/// How many legal moves the check-first line lists before `…`.
pub const CHECK_LIST: usize = 12;

/// `e2-e4` for `E2-E4`: a letter in upper case right before a digit (a square's file) in lower
/// case, and a capture mark `X` between two squares (`D2XE3`: `d2xe3`), when the text has
/// one; `None` otherwise.
pub fn lower_squares(text: &str) -> Option<String> {
    let t = text.trim();
    let chars: Vec<char> = t.chars().collect();
    let mut out = String::with_capacity(t.len());
    let mut changed = false;
    for (i, &c) in chars.iter().enumerate() {
        let next_digit = chars.get(i + 1).is_some_and(char::is_ascii_digit);
        let capture = c == 'X'
            && i > 0
            && chars.get(i - 1).is_some_and(char::is_ascii_digit)
            && chars.get(i + 1).is_some_and(char::is_ascii_alphabetic);
        if (c.is_ascii_uppercase() && next_digit) || capture {
            out.push(c.to_ascii_lowercase());
            changed = true;
        } else {
            out.push(c);
        }
    }
    changed.then_some(out)
}

/// A square as typed: a lower-case file letter and a rank (`e4`, `p16`).
fn square_like(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase()) && {
        let rest = chars.as_str();
        !rest.is_empty()
            && rest.len() <= 2
            && rest.chars().all(|c| c.is_ascii_digit())
            && !rest.starts_with('0')
    }
}

/// A move from `offered` written with its from-square: (piece letters, from, to, promotion).
fn long_form(play: &str) -> Option<(String, String, String, Option<String>)> {
    let p = play.trim_end_matches(['+', '#']);
    let (body, promo) = match p.split_once('=') {
        Some((b, q)) => (b, Some(q.to_string())),
        None => (p, None),
    };
    let cut = body.find(['-', 'x'])?;
    let (head, to) = (&body[..cut], &body[cut + 1..]);
    let at = head.find(|c: char| c.is_ascii_lowercase())?;
    let (piece, from) = head.split_at(at);
    (square_like(from) && square_like(to))
        .then(|| (piece.to_string(), from.to_string(), to.to_string(), promo))
}

/// Short algebraic (`e4`, `Nf3`, `Nxf3`, `exd5`, `e8=Q`): the hint naming the one move from
/// `offered` that it can mean (`write the move from-to: e2-e4`), or the form to use when none
/// or several can (`write the move from-to, like e2-e4`); `None` when the text is not short
/// algebraic.
pub fn short_algebraic(text: &str, offered: &[String]) -> Option<String> {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let (body, promo) = match t.split_once('=') {
        Some((b, q)) => (b, Some(q)),
        None => (t, None),
    };
    // The destination: the trailing square.
    // Cut on characters: the letter before the digits may be any character (`é4`).
    let before_digits = body.trim_end_matches(|c: char| c.is_ascii_digit());
    let digits = body.len() - before_digits.len();
    let file = before_digits.chars().next_back()?;
    if digits == 0 {
        return None;
    }
    let cut = before_digits.len() - file.len_utf8();
    let to = &body[cut..];
    if !square_like(to) {
        return None;
    }
    let mut head = &body[..cut];
    head = head.strip_suffix(['x', ':']).unwrap_or(head);
    // What comes before: nothing, a piece letter (upper case, or lower case other than a file
    // hint), or a pawn's file (`exd5`).
    if head.contains(|c: char| c.is_ascii_digit() || !c.is_ascii_alphabetic()) || head.len() > 2 {
        return None;
    }
    // A piece's letters, or a pawn's file (`exd5`); a lower-case letter that no pawn's file
    // reading fits is read as a piece (`nf3`).
    let readings: Vec<(Option<String>, Option<char>)> = match head.len() {
        0 => vec![(None, None)],
        1 => {
            let c = head.chars().next()?;
            if c.is_ascii_uppercase() {
                vec![(Some(head.to_string()), None)]
            } else {
                vec![(None, Some(c)), (Some(head.to_string()), None)]
            }
        }
        _ => vec![(Some(head.to_string()), None)],
    };
    let mut piece: Option<String> = None;
    let mut candidates: Vec<(String, String, String, String)> = Vec::new();
    for (named, file) in readings {
        candidates = offered
            .iter()
            .filter_map(|o| {
                let (p, f, t2, q) = long_form(o)?;
                let fits = t2 == to
                    && match (&named, file) {
                        (Some(n), _) => p.eq_ignore_ascii_case(n),
                        (None, Some(c)) => p.is_empty() && f.starts_with(c),
                        (None, None) => true,
                    }
                    && match (promo, &q) {
                        (Some(want), Some(have)) => have.eq_ignore_ascii_case(want),
                        (Some(_), None) => false,
                        _ => true,
                    };
                fits.then(|| {
                    let shown = o.trim_end_matches(['+', '#']).to_string();
                    (shown, p, f, q.unwrap_or_default())
                })
            })
            .collect();
        piece = named;
        if !candidates.is_empty() {
            break;
        }
    }
    // A bare square means a pawn first, as in short algebraic; any piece when no pawn can.
    let pawns: Vec<_> = candidates
        .iter()
        .filter(|c| c.1.is_empty())
        .cloned()
        .collect();
    let pool = if piece.is_none() && !pawns.is_empty() {
        pawns
    } else {
        candidates
    };
    let mut sources: Vec<&String> = pool.iter().map(|c| &c.2).collect();
    sources.sort();
    sources.dedup();
    if sources.len() == 1 {
        // Several promotions from the one square: the first choice shows the form.
        return Some(format!("write the move from-to: {}", pool[0].0));
    }
    Some("write the move from-to, like e2-e4".to_string())
}

/// The first line of a move refused while the mover's King is attacked: `your King on h1 is
/// in check; legal moves: Kh1-g1 Kh1-h2 …` (at most [`CHECK_LIST`] listed).
pub fn check_line(king: &str, legal: &[String]) -> String {
    let mut shown: Vec<&str> = legal.iter().take(CHECK_LIST).map(String::as_str).collect();
    if legal.len() > CHECK_LIST {
        shown.push("…");
    }
    if legal.is_empty() {
        format!("your King on {king} is in check; you have no legal move")
    } else {
        format!(
            "your King on {king} is in check; legal moves: {}",
            shown.join(" ")
        )
    }
}

/// A refused move's text, with the hint for upper-case squares or short algebraic in its
/// place when the text is written so, and the check-first line before it when `check` names
/// the mover's King in check.
pub fn refined(refusal: String, text: &str, offered: &[String], check: Option<&str>) -> String {
    let hint = match lower_squares(text) {
        Some(lower) if text.trim() != lower => {
            Some(format!("square letters are lower case: {lower}"))
        }
        _ => short_algebraic(text, offered),
    };
    let body = hint.unwrap_or(refusal);
    match check {
        Some(king) => format!("{}\n{body}", check_line(king, offered)),
        None => body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offered(list: &str) -> Vec<String> {
        list.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn upper_case_squares_are_named_in_lower_case() {
        assert_eq!(lower_squares("E2-E4").as_deref(), Some("e2-e4"));
        assert_eq!(lower_squares("NB1-C3").as_deref(), Some("Nb1-c3"));
        assert_eq!(lower_squares("e2-e4"), None);
        assert_eq!(lower_squares("Nb1-c3"), None);
        assert_eq!(
            refined("x".into(), "E2-E4", &[], None),
            "square letters are lower case: e2-e4"
        );
    }

    #[test]
    fn short_algebraic_names_the_one_move_it_can_mean() {
        let moves = offered("e2-e3 e2-e4 d2-d4 Nb1-c3 Ng1-f3 Nb1-a3 b2xc3 d2xc3");
        let hint = |t: &str| short_algebraic(t, &moves);
        assert_eq!(hint("e4").as_deref(), Some("write the move from-to: e2-e4"));
        assert_eq!(
            hint("Nf3").as_deref(),
            Some("write the move from-to: Ng1-f3")
        );
        assert_eq!(
            hint("nf3").as_deref(),
            Some("write the move from-to: Ng1-f3")
        );
        assert_eq!(
            hint("bxc3").as_deref(),
            Some("write the move from-to: b2xc3")
        );
        // Two pawns can take on c3; nothing reaches e5.
        assert_eq!(
            hint("c3").as_deref(),
            Some("write the move from-to, like e2-e4")
        );
        assert_eq!(
            hint("e5").as_deref(),
            Some("write the move from-to, like e2-e4")
        );
        assert_eq!(hint("e2-e4"), None);
        assert_eq!(hint("Nb1c3"), None);
        assert_eq!(hint("0-0"), None);
        assert_eq!(hint("N@c3"), None);
    }

    #[test]
    fn the_check_line_comes_first_and_lists_at_most_twelve() {
        let many: Vec<String> = (1..=14).map(|i| format!("Kh1-g{i}")).collect();
        let line = refined("h1 is not legal".into(), "a2-a3", &many, Some("h1"));
        let (first, rest) = line.split_once('\n').expect("two lines");
        assert!(first.starts_with("your King on h1 is in check; legal moves: Kh1-g1 "));
        assert!(first.ends_with("Kh1-g12 …"), "{first}");
        assert_eq!(rest, "h1 is not legal");
    }
}
