//! Temporary stand-in for the draft (replaced by the full implementation).
#![allow(missing_docs)]

#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Colour {
    Red,
    LightGreen,
    Blue,
}
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Order {
    First,
    Second,
}
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Army {
    Fide,
    Clobberers,
    Nutty,
    Rookies,
    Forward,
}
impl Colour {
    pub fn parse(s: &str) -> Option<Colour> {
        match s.to_lowercase().as_str() {
            "red" => Some(Colour::Red),
            "lightgreen" => Some(Colour::LightGreen),
            "blue" => Some(Colour::Blue),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::LightGreen => "lightgreen",
            Colour::Blue => "blue",
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}
impl Order {
    pub fn parse(s: &str) -> Option<Order> {
        match s.to_lowercase().as_str() {
            "first" => Some(Order::First),
            "second" => Some(Order::Second),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Order::First => "first",
            Order::Second => "second",
        }
    }
}
impl Army {
    pub fn parse(s: &str) -> Option<Army> {
        match s.to_lowercase().as_str() {
            "fide" => Some(Army::Fide),
            "clobberers" => Some(Army::Clobberers),
            "nutty" => Some(Army::Nutty),
            "rookies" => Some(Army::Rookies),
            "forward" => Some(Army::Forward),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Army::Fide => "fide",
            Army::Clobberers => "clobberers",
            Army::Nutty => "nutty",
            Army::Rookies => "rookies",
            Army::Forward => "forward",
        }
    }
}
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Choice {
    pub order: Order,
    pub colour: Colour,
    pub army: Army,
}
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DraftOutcome {
    Picked {
        player: usize,
        choice: Choice,
        by: usize,
    },
    HandedOver {
        player: usize,
        refused: Choice,
        reason: String,
    },
}
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DraftRefusal {
    #[error("{0}")]
    Other(String),
}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSeat {
    pub first: usize,
    pub second: usize,
}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seating {
    pub boards: [BoardSeat; 3],
}
#[derive(Clone, Debug)]
pub struct Draft {
    picks: [Option<Choice>; 6],
    turn: usize,
    pending: Option<usize>,
}
impl Draft {
    pub fn new(first_team: usize) -> Draft {
        Draft {
            picks: [None; 6],
            turn: first_team,
            pending: None,
        }
    }
    pub fn turn(&self) -> usize {
        self.turn
    }
    pub fn pending_handover(&self) -> Option<usize> {
        self.pending
    }
    pub fn choice(&self, p: usize) -> Option<Choice> {
        self.picks.get(p).copied().flatten()
    }
    pub fn pick(
        &self,
        actor: usize,
        _for_player: Option<usize>,
        choice: Choice,
    ) -> Result<DraftOutcome, DraftRefusal> {
        if actor / 3 != self.turn {
            return Err(DraftRefusal::Other("not your team's turn".into()));
        }
        if self.picks[actor].is_some() {
            return Err(DraftRefusal::Other("already picked".into()));
        }
        Ok(DraftOutcome::Picked {
            player: actor,
            choice,
            by: actor,
        })
    }
    pub fn apply(&mut self, o: &DraftOutcome) {
        if let DraftOutcome::Picked { player, choice, .. } = o {
            self.picks[*player] = Some(*choice);
            self.turn = 1 - self.turn;
        }
    }
    pub fn seating(&self) -> Option<Seating> {
        let c: Vec<Choice> = self.picks.iter().copied().collect::<Option<Vec<_>>>()?;
        let find =
            |team: usize, col: Colour| (team * 3..team * 3 + 3).find(|&p| c[p].colour == col);
        let pairs = [
            (Colour::Red, Colour::LightGreen),
            (Colour::Blue, Colour::Red),
            (Colour::LightGreen, Colour::Blue),
        ];
        for flip in [false, true] {
            let mut boards = Vec::new();
            for &(a, b) in &pairs {
                let (x, y) = if flip {
                    (find(0, b)?, find(1, a)?)
                } else {
                    (find(0, a)?, find(1, b)?)
                };
                let (f, s) = if c[x].order == Order::First {
                    (x, y)
                } else {
                    (y, x)
                };
                if c[f].order != Order::First || c[s].order != Order::Second {
                    boards.clear();
                    break;
                }
                boards.push(BoardSeat {
                    first: f,
                    second: s,
                });
            }
            if boards.len() == 3 {
                return Some(Seating {
                    boards: [boards[0], boards[1], boards[2]],
                });
            }
        }
        None
    }
}
