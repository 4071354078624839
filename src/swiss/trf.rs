//! Reading and writing the TRF subset used by the pairing engine.

use super::model::{Colour, Entrant, Outcome, PointSystem, RoundRecord, Tournament};
use super::SwissError;

fn bad(line_no: usize, why: &str) -> SwissError {
    SwissError::Trf {
        line: line_no,
        reason: why.to_string(),
    }
}

/// Parse a score such as `6.0`, `6`, `12.5` into tenths.
fn parse_tenths(text: &str, line_no: usize) -> Result<u32, SwissError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(bad(line_no, "empty score"));
    }
    let (int_part, frac_part) = match t.split_once('.') {
        Some((i, f)) => (i, f),
        None => (t, ""),
    };
    let int: u32 = if int_part.is_empty() {
        0
    } else {
        int_part
            .parse()
            .map_err(|_| bad(line_no, "invalid score"))?
    };
    let frac: u32 = match frac_part.len() {
        0 => 0,
        1 => frac_part
            .parse()
            .map_err(|_| bad(line_no, "invalid score"))?,
        _ => return Err(bad(line_no, "score has more than one decimal")),
    };
    Ok(int * 10 + frac)
}

fn parse_id(text: &str, line_no: usize) -> Result<u32, SwissError> {
    let id: u32 = text
        .trim()
        .parse()
        .map_err(|_| bad(line_no, "invalid pairing number"))?;
    if id == 0 {
        return Err(bad(line_no, "pairing number 0"));
    }
    Ok(id)
}

fn slice(chars: &[char], from: usize, to: usize) -> String {
    chars
        .get(from.min(chars.len())..to.min(chars.len()))
        .map(|s| s.iter().collect())
        .unwrap_or_default()
}

fn parse_player(line: &str, line_no: usize) -> Result<Entrant, SwissError> {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() < 84 {
        return Err(bad(line_no, "player line too short"));
    }
    let id = parse_id(&slice(&chars, 4, 8), line_no)?;
    let name = slice(&chars, 14, 47).trim().to_string();
    let rating_text = slice(&chars, 48, 52);
    let rating = if rating_text.trim().is_empty() {
        0
    } else {
        rating_text
            .trim()
            .parse()
            .map_err(|_| bad(line_no, "invalid rating"))?
    };
    let mut rounds = Vec::new();
    let mut skipped = 0usize;
    let mut start = 91usize;
    while start + 8 <= chars.len() {
        let opp_text = slice(&chars, start, start + 4);
        let mut skip = true;
        let mut played = true;
        let mut opponent = None;
        if opp_text != "    " {
            if opp_text != "0000" {
                let o = parse_id(&opp_text, line_no)?;
                if o == id {
                    return Err(bad(line_no, "entrant paired with itself"));
                }
                opponent = Some(o);
            }
            skip = false;
        }
        if opponent.is_none() {
            played = false;
        }
        let colour_char = chars[start + 5];
        let colour = match colour_char {
            'w' => Some(Colour::White),
            'b' => Some(Colour::Black),
            '-' | ' ' => None,
            _ => return Err(bad(line_no, "invalid colour")),
        };
        match colour_char {
            'w' | 'b' => skip = false,
            '-' => {
                skip = false;
                played = false;
            }
            _ => played = false,
        }
        if opponent.is_none() && colour.is_some() {
            return Err(bad(line_no, "colour without opponent"));
        }
        let result = chars[start + 7].to_ascii_uppercase();
        let outcome = match result {
            'D' | '=' | 'H' => Outcome::Draw,
            '+' | 'W' | '1' | 'F' | 'U' => Outcome::Win,
            '-' | 'L' | '0' | 'Z' | ' ' => Outcome::Loss,
            _ => return Err(bad(line_no, "invalid result")),
        };
        if matches!(result, '+' | '-' | 'H' | 'F' | 'U' | 'Z' | ' ') {
            played = false;
            if result != '+' && result != '-' && opponent.is_some() {
                return Err(bad(line_no, "bye with an opponent"));
            }
        } else if colour.is_none() && (result != '=' || opponent.is_some()) {
            return Err(bad(line_no, "game without colour"));
        }
        if result != ' ' {
            skip = false;
        }
        let participated = opponent.is_some() || result == 'U' || result == '+';
        if skip {
            skipped += 1;
        } else {
            for _ in 0..skipped {
                rounds.push(RoundRecord::absent());
            }
            skipped = 0;
            rounds.push(RoundRecord {
                opponent,
                colour,
                outcome,
                played,
                participated,
            });
        }
        start += 10;
    }
    if chars.len() > start && chars[start..].iter().any(|&c| c != ' ') {
        return Err(bad(line_no, "trailing characters"));
    }
    Ok(Entrant {
        id,
        name,
        rating,
        rounds,
    })
}

fn parse_point_system(
    line: &str,
    line_no: usize,
    points: &mut PointSystem,
    explicit_bye: &mut bool,
) -> Result<(), SwissError> {
    let chars: Vec<char> = line.chars().collect();
    let mut start = 5usize;
    while start + 5 <= chars.len() {
        let code = chars[start];
        let value = parse_tenths(&slice(&chars, start + 1, start + 5), line_no)?;
        match code {
            'W' => {
                points.win = value;
                if !*explicit_bye {
                    points.pairing_bye = value;
                }
            }
            'D' => points.draw = value,
            'L' => points.loss = value,
            'Z' | 'A' => {
                points.zero_bye = value;
                points.forfeit_loss = value;
            }
            'P' => {
                points.pairing_bye = value;
                *explicit_bye = true;
            }
            _ => return Err(bad(line_no, "unknown point-system code")),
        }
        start += 9;
    }
    Ok(())
}

/// Parse the TRF subset described in the module documentation.
pub fn parse_trf(text: &str) -> Result<Tournament, SwissError> {
    let mut name = String::new();
    let mut entrants: Vec<Entrant> = Vec::new();
    let mut total_rounds = 0u32;
    let mut initial_colour = None;
    let mut points = PointSystem::default();
    let mut explicit_bye = false;
    let mut forbidden = Vec::new();
    for (index, raw) in text.split(['\n', '\r']).enumerate() {
        let line_no = index + 1;
        let line = raw;
        if line.len() < 3 {
            continue;
        }
        let prefix = line.get(0..3).unwrap_or("");
        let rest = line.get(3..).unwrap_or("");
        match prefix {
            "001" => entrants.push(parse_player(line, line_no)?),
            "012" => name = rest.trim().to_string(),
            "013" | "310" => return Err(bad(line_no, "team lines are not supported")),
            "XXR" | "142" => {
                total_rounds = rest
                    .trim()
                    .parse()
                    .map_err(|_| bad(line_no, "invalid number of rounds"))?;
                if total_rounds == 0 {
                    return Err(bad(line_no, "zero rounds"));
                }
            }
            "XXC" => {
                for token in rest.split_whitespace() {
                    match token {
                        "white1" => initial_colour = Some(Colour::White),
                        "black1" => initial_colour = Some(Colour::Black),
                        "rank" => {
                            return Err(bad(line_no, "XXC rank is not supported"));
                        }
                        _ => {}
                    }
                }
            }
            "152" => match rest.trim() {
                "W" => initial_colour = Some(Colour::White),
                "B" => initial_colour = Some(Colour::Black),
                _ => return Err(bad(line_no, "invalid initial colour")),
            },
            "162" => parse_point_system(line, line_no, &mut points, &mut explicit_bye)?,
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                let value = parse_tenths(rest, line_no)?;
                match prefix {
                    "BBW" => {
                        points.win = value;
                        if !explicit_bye {
                            points.pairing_bye = value;
                        }
                    }
                    "BBD" => points.draw = value,
                    "BBL" => points.loss = value,
                    "BBZ" => points.zero_bye = value,
                    "BBF" => points.forfeit_loss = value,
                    _ => {
                        points.pairing_bye = value;
                        explicit_bye = true;
                    }
                }
            }
            "XXP" => {
                let group = rest
                    .split_whitespace()
                    .map(|t| parse_id(t, line_no))
                    .collect::<Result<Vec<_>, _>>()?;
                forbidden.push(group);
            }
            "XXA" | "250" => return Err(bad(line_no, "acceleration is not supported")),
            _ => {}
        }
    }
    entrants.sort_by_key(|e| e.id);
    let tournament = Tournament {
        name,
        entrants,
        total_rounds,
        initial_colour,
        points,
        forbidden,
    };
    tournament.validate()?;
    Ok(tournament)
}

fn format_tenths(value: u32) -> String {
    format!("{}.{}", value / 10, value % 10)
}

/// Write the tournament as TRF (LF line endings), in the format
/// [`parse_trf`] reads back.
pub fn write_trf(t: &Tournament) -> String {
    let mut out = String::new();
    if !t.name.is_empty() {
        out.push_str(&format!("012 {}\n", t.name));
    }
    out.push_str(&format!("XXR {}\n", t.total_rounds));
    match t.initial_colour {
        Some(Colour::White) => out.push_str("XXC white1\n"),
        Some(Colour::Black) => out.push_str("XXC black1\n"),
        None => {}
    }
    let p = &t.points;
    if *p != PointSystem::default() {
        out.push_str(&format!("BBW {:>4}\n", format_tenths(p.win)));
        out.push_str(&format!("BBD {:>4}\n", format_tenths(p.draw)));
        out.push_str(&format!("BBL {:>4}\n", format_tenths(p.loss)));
        out.push_str(&format!("BBZ {:>4}\n", format_tenths(p.zero_bye)));
        out.push_str(&format!("BBF {:>4}\n", format_tenths(p.forfeit_loss)));
        out.push_str(&format!("BBU {:>4}\n", format_tenths(p.pairing_bye)));
    }
    for group in &t.forbidden {
        let ids: Vec<String> = group.iter().map(|id| id.to_string()).collect();
        out.push_str(&format!("XXP {}\n", ids.join(" ")));
    }
    let played = t.played_rounds();
    let ranks = super::standings::ranks(t);
    for e in &t.entrants {
        let score = t.score_after(e, played);
        let mut name: String = e.name.chars().take(33).collect();
        while name.chars().count() < 33 {
            name.push(' ');
        }
        let rank = (e.id as usize)
            .checked_sub(1)
            .and_then(|k| ranks.get(k))
            .copied()
            .unwrap_or(0);
        let mut line = format!(
            "001 {:>4}      {} {:>4}                            {:>4} {:>4}",
            e.id,
            name,
            e.rating,
            format_tenths(score),
            rank
        );
        for r in &e.rounds {
            line.push_str("  ");
            if !r.participated {
                let code = match r.outcome {
                    Outcome::Win => 'F',
                    Outcome::Draw => 'H',
                    Outcome::Loss => 'Z',
                };
                line.push_str(&format!("0000 - {code}"));
            } else if let Some(o) = r.opponent {
                let c = match r.colour {
                    Some(Colour::White) => 'w',
                    Some(Colour::Black) => 'b',
                    None => '-',
                };
                let res = match (r.played, r.outcome) {
                    (true, Outcome::Win) => '1',
                    (true, Outcome::Draw) => '=',
                    (true, Outcome::Loss) => '0',
                    (false, Outcome::Win) => '+',
                    (false, _) => '-',
                };
                line.push_str(&format!("{o:>4} {c} {res}"));
            } else {
                line.push_str("0000 - U");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
