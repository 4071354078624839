//! Mobility and Weight (Party rules 3.7, 3.8a).

use std::collections::BTreeSet;

use super::board::{Position, Sq};
use super::rules::{attacks_any, defends_any, piece_moves, Mode};

/// A piece's Mobility over its non-capturing pseudo-legal moves (lent moves in, scratches
/// out): none → 0; least distance > 1 and greatest − least ≤ 2 → half their number;
/// otherwise the greatest distance (Chebyshev, to each distinct destination).
pub fn mobility(pos: &Position, sq: Sq) -> f64 {
    let dests: BTreeSet<Sq> = piece_moves(pos, sq, Mode::Attack, true)
        .into_iter()
        .filter(|m| !m.captures() && !m.scratch && !m.standoff)
        .map(|m| m.to)
        .collect();
    let dists: Vec<i32> = dests.iter().map(|&d| sq.distance(d)).collect();
    let (Some(&least), Some(&most)) = (dists.iter().min(), dists.iter().max()) else {
        return 0.0;
    };
    if least > 1 && most - least <= 2 {
        dests.len() as f64 / 2.0
    } else {
        f64::from(most)
    }
}

/// A Swinger's Weight: 0 without a King on the board; otherwise, over their on-board
/// pieces, value + Mobility + 5 if it attacks an opposing piece + 4 if it defends a friendly
/// one.
pub fn weight(pos: &Position, seat: u8) -> f64 {
    if pos.king(seat).is_none() {
        return 0.0;
    }
    pos.pieces_of(seat)
        .map(|(sq, p)| {
            let mut w = f64::from(p.kind.value()) + mobility(pos, sq);
            if attacks_any(pos, sq, false) {
                w += 5.0;
            }
            if defends_any(pos, sq) {
                w += 4.0;
            }
            w
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::party::rules::tests::pos;

    #[test]
    fn the_rulings_example_weighs_39_5() {
        let p = pos("c3=K1 c10=R1 e5=J1 c14=P2", 2);
        assert_eq!(weight(&p, 1), 39.5);
        assert_eq!(weight(&p, 2), 0.0, "no King on the board");
    }

    #[test]
    fn mobility_rules() {
        let sq = |n: &str| Sq::parse(n).expect("square");
        // A Jester in the open: eight destinations at 2 → half of 8.
        assert_eq!(mobility(&pos("e5=J1", 2), sq("e5")), 4.0);
        // A King: greatest distance 1.
        assert_eq!(mobility(&pos("e5=K1", 2), sq("e5")), 1.0);
        // A Qball: its landing squares, not its path; scratches count nothing.
        let m = mobility(&pos("b2=Q1", 2), sq("b2"));
        assert!(m > 0.0);
        // Nothing to move: 0.
        assert_eq!(mobility(&pos("e5=E1", 2), sq("e5")), 0.0);
    }
}
