//! FIDE Dutch Swiss pairing (2025 rules), reproducing bbpPairings v6.
//!
//! The pairing is computed as a sequence of maximum-weight matchings whose
//! edge weights encode the Dutch criteria (see [`dutch`]). Input and output
//! use the TRF subset read by [`parse_trf`].
//!
//! Typical use: [`pair_trf`] for text in, text out (what `arbiter swiss pair
//! --trf FILE` needs), or [`parse_trf`] / [`Tournament::new`], then
//! [`pair_next_round`], [`record_round`] (and [`preassign_bye`] for entrants
//! sitting out the next round), [`write_trf`] and [`standings()`].
//! Acceleration (`XXA`, Baku) and `XXC rank` are not supported.

pub mod dutch;
pub mod matching;
pub mod model;
pub mod standings;
pub mod trf;
pub mod wide;

pub use model::{Colour, Entrant, Outcome, PointSystem, RoundRecord, Tournament};
pub use standings::{standings, Standing};
pub use trf::{parse_trf, write_trf};

/// Errors of the Swiss pairing module.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum SwissError {
    /// A TRF line could not be read.
    #[error("TRF line {line}: {reason}")]
    Trf {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        reason: String,
    },
    /// The tournament data is inconsistent or incomplete.
    #[error("invalid tournament: {0}")]
    Invalid(String),
    /// No pairing satisfies the absolute criteria.
    #[error("no valid pairing exists")]
    NoValidPairing,
    /// The tournament is too large for the weight representation.
    #[error("tournament too large to pair")]
    TooLarge,
    /// A recorded result does not fit the pairing.
    #[error("result does not match the pairing: {0}")]
    BadResult(String),
}

/// One round's pairing: `(white, black)` pairing numbers and the
/// pairing-allocated bye.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Pairing {
    /// Boards as (white, black) pairing numbers.
    pub pairs: Vec<(u32, u32)>,
    /// Entrant receiving the pairing-allocated bye.
    pub bye: Option<u32>,
}

/// Pair the next round of `t` with the Dutch system.
pub fn pair_next_round(t: &Tournament) -> Result<Pairing, SwissError> {
    dutch::pair(t)
}

/// Format a pairing like bbpPairings' `-p` output: the number of lines, then
/// `white black` per board and `id 0` for the bye.
pub fn format_pairing(p: &Pairing) -> String {
    let mut out = format!("{}\n", p.pairs.len() + usize::from(p.bye.is_some()));
    for (w, b) in &p.pairs {
        out.push_str(&format!("{w} {b}\n"));
    }
    if let Some(b) = p.bye {
        out.push_str(&format!("{b} 0\n"));
    }
    out
}

/// Parse a pairing in the [`format_pairing`] format.
pub fn parse_pairing(text: &str) -> Result<Pairing, SwissError> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let count: usize = lines
        .next()
        .and_then(|l| l.trim().parse().ok())
        .ok_or_else(|| SwissError::Invalid("missing pairing count".to_string()))?;
    let mut p = Pairing::default();
    for _ in 0..count {
        let line = lines
            .next()
            .ok_or_else(|| SwissError::Invalid("too few pairing lines".to_string()))?;
        let nums: Vec<u32> = line
            .split_whitespace()
            .map(|x| x.parse::<u32>())
            .collect::<Result<_, _>>()
            .map_err(|_| SwissError::Invalid(format!("bad pairing line {line:?}")))?;
        match nums.as_slice() {
            [a, 0] => p.bye = Some(*a),
            [a, b] => p.pairs.push((*a, *b)),
            _ => return Err(SwissError::Invalid(format!("bad pairing line {line:?}"))),
        }
    }
    p.pairs.sort_unstable();
    Ok(p)
}

/// Parse a TRF text, pair its next round and format the result.
pub fn pair_trf(text: &str) -> Result<String, SwissError> {
    let t = parse_trf(text)?;
    let p = pair_next_round(&t)?;
    Ok(format_pairing(&p))
}

/// Result of one board, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardResult {
    /// White won over the board.
    WhiteWins,
    /// Drawn game.
    Draw,
    /// Black won over the board.
    BlackWins,
    /// White won by forfeit (Black did not play).
    WhiteForfeitWin,
    /// Black won by forfeit (White did not play).
    BlackForfeitWin,
    /// Neither played (double forfeit).
    DoubleForfeit,
}

/// Append a round to `t`: the pairing with one result per board (in the
/// order of `pairing.pairs`), the pairing-allocated bye, and pre-assigned
/// byes or absences (`absent`: pairing number with `Win` = full-point bye,
/// `Draw` = half-point bye, `Loss` = zero-point bye/absence). Entrants not
/// mentioned anywhere get an absence.
pub fn record_round(
    t: &mut Tournament,
    pairing: &Pairing,
    results: &[BoardResult],
    absent: &[(u32, Outcome)],
) -> Result<(), SwissError> {
    if results.len() != pairing.pairs.len() {
        return Err(SwissError::BadResult(
            "one result per board is needed".to_string(),
        ));
    }
    let round = t.played_rounds();
    let n = t.entrants.len() as u32;
    let mut new: Vec<Option<RoundRecord>> = vec![None; t.entrants.len()];
    let mut put = |id: u32, r: RoundRecord| -> Result<(), SwissError> {
        if id == 0 || id > n {
            return Err(SwissError::BadResult(format!("unknown entrant {id}")));
        }
        let slot = &mut new[id as usize - 1];
        if slot.is_some() {
            return Err(SwissError::BadResult(format!("entrant {id} appears twice")));
        }
        *slot = Some(r);
        Ok(())
    };
    for (&(w, b), res) in pairing.pairs.iter().zip(results) {
        use BoardResult::*;
        let (rw, rb) = match res {
            WhiteWins => (
                RoundRecord::game(b, Colour::White, Outcome::Win),
                RoundRecord::game(w, Colour::Black, Outcome::Loss),
            ),
            Draw => (
                RoundRecord::game(b, Colour::White, Outcome::Draw),
                RoundRecord::game(w, Colour::Black, Outcome::Draw),
            ),
            BlackWins => (
                RoundRecord::game(b, Colour::White, Outcome::Loss),
                RoundRecord::game(w, Colour::Black, Outcome::Win),
            ),
            WhiteForfeitWin => (
                RoundRecord::forfeit(b, Colour::White, true),
                RoundRecord::forfeit(w, Colour::Black, false),
            ),
            BlackForfeitWin => (
                RoundRecord::forfeit(b, Colour::White, false),
                RoundRecord::forfeit(w, Colour::Black, true),
            ),
            DoubleForfeit => (
                RoundRecord::forfeit(b, Colour::White, false),
                RoundRecord::forfeit(w, Colour::Black, false),
            ),
        };
        put(w, rw)?;
        put(b, rb)?;
    }
    if let Some(b) = pairing.bye {
        put(b, RoundRecord::pairing_bye())?;
    }
    for &(id, outcome) in absent {
        put(id, RoundRecord::requested_bye(outcome))?;
    }
    for (e, r) in t.entrants.iter_mut().zip(new) {
        let r = r.unwrap_or_else(RoundRecord::absent);
        if e.rounds.len() > round {
            // A pre-assigned record for this round already exists.
            if e.rounds[round].participated || r.participated {
                e.rounds[round] = r;
            }
        } else {
            while e.rounds.len() < round {
                e.rounds.push(RoundRecord::absent());
            }
            e.rounds.push(r);
        }
    }
    Ok(())
}

/// Pre-assign a bye (or absence) for the next round to entrant `id`, so the
/// pairing leaves it out: `Win` = full-point bye, `Draw` = half-point bye,
/// `Loss` = zero-point bye / absence.
pub fn preassign_bye(t: &mut Tournament, id: u32, outcome: Outcome) -> Result<(), SwissError> {
    let round = t.played_rounds();
    let e = (id as usize)
        .checked_sub(1)
        .and_then(|k| t.entrants.get_mut(k))
        .ok_or_else(|| SwissError::BadResult(format!("unknown entrant {id}")))?;
    while e.rounds.len() < round {
        e.rounds.push(RoundRecord::absent());
    }
    let record = RoundRecord::requested_bye(outcome);
    if e.rounds.len() == round {
        e.rounds.push(record);
    } else {
        e.rounds[round] = record;
    }
    Ok(())
}
