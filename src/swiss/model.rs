//! Tournament data: entrants, their round records and the point system.

use super::SwissError;

/// A piece colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn invert(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// Outcome of one round for one entrant, as far as scoring is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Win (or forfeit win, pairing-allocated bye, full-point bye).
    Win,
    /// Draw (or half-point bye).
    Draw,
    /// Loss (or forfeit loss, zero-point bye, absence).
    Loss,
}

/// One entrant's record for one round (a TRF round block).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoundRecord {
    /// Opponent's pairing number, if a pairing with an opponent was made.
    pub opponent: Option<u32>,
    /// Colour of a pairing with an opponent.
    pub colour: Option<Colour>,
    /// Scoring outcome.
    pub outcome: Outcome,
    /// The game was actually played over the board.
    pub played: bool,
    /// The entrant took part in the pairing (paired or pairing-allocated bye).
    pub participated: bool,
}

impl RoundRecord {
    /// An empty round (absent, scores as a zero-point bye).
    pub fn absent() -> Self {
        RoundRecord {
            opponent: None,
            colour: None,
            outcome: Outcome::Loss,
            played: false,
            participated: false,
        }
    }

    /// A played game against `opponent` with `colour`.
    pub fn game(opponent: u32, colour: Colour, outcome: Outcome) -> Self {
        RoundRecord {
            opponent: Some(opponent),
            colour: Some(colour),
            outcome,
            played: true,
            participated: true,
        }
    }

    /// A pairing that was made but not played (forfeit): `won` for the
    /// entrant who was present.
    pub fn forfeit(opponent: u32, colour: Colour, won: bool) -> Self {
        RoundRecord {
            opponent: Some(opponent),
            colour: Some(colour),
            outcome: if won { Outcome::Win } else { Outcome::Loss },
            played: false,
            participated: true,
        }
    }

    /// The pairing-allocated bye.
    pub fn pairing_bye() -> Self {
        RoundRecord {
            opponent: None,
            colour: None,
            outcome: Outcome::Win,
            played: false,
            participated: true,
        }
    }

    /// A pre-assigned bye (not paired): `Win` = full point (F), `Draw` = half
    /// point (H), `Loss` = zero point (Z).
    pub fn requested_bye(outcome: Outcome) -> Self {
        RoundRecord {
            opponent: None,
            colour: None,
            outcome,
            played: false,
            participated: false,
        }
    }

    /// Whether this is the pairing-allocated bye.
    pub fn is_pairing_bye(&self) -> bool {
        self.opponent.is_none() && self.participated
    }
}

/// Points (in tenths) for each kind of result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PointSystem {
    /// Win (also forfeit win and full-point bye).
    pub win: u32,
    /// Draw (also half-point bye).
    pub draw: u32,
    /// Played loss.
    pub loss: u32,
    /// Zero-point bye / absence.
    pub zero_bye: u32,
    /// Forfeit loss.
    pub forfeit_loss: u32,
    /// Pairing-allocated bye.
    pub pairing_bye: u32,
}

impl Default for PointSystem {
    fn default() -> Self {
        PointSystem {
            win: 10,
            draw: 5,
            loss: 0,
            zero_bye: 0,
            forfeit_loss: 0,
            pairing_bye: 10,
        }
    }
}

impl PointSystem {
    /// Points (tenths) earned by `record` for the entrant it belongs to.
    pub fn points(&self, record: &RoundRecord) -> u32 {
        match record.outcome {
            Outcome::Loss => {
                if record.participated {
                    if record.played {
                        self.loss
                    } else {
                        self.forfeit_loss
                    }
                } else {
                    self.zero_bye
                }
            }
            Outcome::Win => {
                if record.is_pairing_bye() {
                    self.pairing_bye
                } else {
                    self.win
                }
            }
            Outcome::Draw => self.draw,
        }
    }
}

/// One entrant (a TRF `001` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// Pairing number (1-based).
    pub id: u32,
    /// Name field (informational).
    pub name: String,
    /// Rating (informational, 0 if none).
    pub rating: u32,
    /// Round records, round 1 first. A record beyond the last paired round
    /// marks the entrant as not to be paired in the next round.
    pub rounds: Vec<RoundRecord>,
}

/// A Swiss tournament as needed for pairing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    /// Tournament name (TRF `012`), informational.
    pub name: String,
    /// Entrants indexed by pairing number minus one.
    pub entrants: Vec<Entrant>,
    /// Total number of rounds planned (TRF `XXR`).
    pub total_rounds: u32,
    /// Colour of pairing number 1 in round 1 (TRF `XXC`).
    pub initial_colour: Option<Colour>,
    /// Point system.
    pub points: PointSystem,
    /// Groups of entrants who must not meet (TRF `XXP`).
    pub forbidden: Vec<Vec<u32>>,
}

impl Tournament {
    /// A new tournament with `count` entrants numbered 1..=count.
    pub fn new(name: &str, count: u32, total_rounds: u32) -> Self {
        Tournament {
            name: name.to_string(),
            entrants: (1..=count)
                .map(|id| Entrant {
                    id,
                    name: format!("Entrant{id:04}"),
                    rating: 0,
                    rounds: Vec::new(),
                })
                .collect(),
            total_rounds,
            initial_colour: Some(Colour::White),
            points: PointSystem::default(),
            forbidden: Vec::new(),
        }
    }

    /// Number of rounds that have been paired (the bbpPairings rule: the last
    /// round in which some entrant took part in the pairing).
    pub fn played_rounds(&self) -> usize {
        let mut played = 0;
        for e in &self.entrants {
            for (i, r) in e.rounds.iter().enumerate() {
                if r.participated || i + 1 < e.rounds.len() {
                    played = played.max(i + 1);
                }
            }
        }
        played
    }

    /// Score (tenths) of an entrant over the first `rounds` rounds.
    pub fn score_after(&self, entrant: &Entrant, rounds: usize) -> u32 {
        entrant
            .rounds
            .iter()
            .take(rounds)
            .map(|r| self.points.points(r))
            .sum()
    }

    /// Check the data the pairing relies on: pairing numbers are 1..=n in
    /// order, opponents exist and agree on their games, forbidden groups name
    /// existing entrants.
    pub fn validate(&self) -> Result<(), SwissError> {
        let n = self.entrants.len();
        for (i, e) in self.entrants.iter().enumerate() {
            if e.id as usize != i + 1 {
                return Err(SwissError::Invalid(format!(
                    "pairing numbers must be 1..{n} in order without gaps or repeats"
                )));
            }
        }
        for group in &self.forbidden {
            if group.iter().any(|&id| id == 0 || id as usize > n) {
                return Err(SwissError::Invalid(
                    "forbidden pair names an unknown entrant".to_string(),
                ));
            }
        }
        for e in &self.entrants {
            for (round, r) in e.rounds.iter().enumerate() {
                let Some(o) = r.opponent else {
                    if r.played {
                        return Err(SwissError::Invalid(format!(
                            "round {} of entrant {} is played without an opponent",
                            round + 1,
                            e.id
                        )));
                    }
                    continue;
                };
                let opp = (o as usize)
                    .checked_sub(1)
                    .and_then(|k| self.entrants.get(k))
                    .ok_or_else(|| SwissError::Invalid(format!("unknown opponent {o}")))?;
                let back = opp.rounds.get(round);
                let consistent = o != e.id
                    && back.is_some_and(|b| {
                        b.opponent == Some(e.id)
                            && b.played == r.played
                            && (!r.played || (b.colour.is_some() && b.colour != r.colour))
                    });
                if !consistent {
                    return Err(SwissError::Invalid(format!(
                        "round {} of entrant {} contradicts entrant {}",
                        round + 1,
                        e.id,
                        o
                    )));
                }
            }
        }
        Ok(())
    }
}
