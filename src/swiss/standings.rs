//! Standings with Buchholz, Sonneborn-Berger and direct-encounter tie-breaks.

use super::model::{Outcome, Tournament};

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Pairing number.
    pub id: u32,
    /// Score in tenths.
    pub score: u32,
    /// Buchholz (sum of opponents' scores, tenths).
    pub buchholz: u32,
    /// Sonneborn-Berger in hundredths of a point: beaten opponents' scores
    /// plus half of drawn opponents' scores.
    pub sonneborn_berger: u64,
    /// 1-based place (ties broken by score, Buchholz, Sonneborn-Berger,
    /// direct encounter, then pairing number).
    pub place: u32,
}

/// Compute standings after all recorded rounds.
pub fn standings(t: &Tournament) -> Vec<Standing> {
    let played = t.played_rounds();
    let scores: Vec<u32> = t
        .entrants
        .iter()
        .map(|e| t.score_after(e, played))
        .collect();
    let mut rows: Vec<Standing> = t
        .entrants
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut buchholz = 0;
            let mut sb = 0u64;
            for r in e.rounds.iter().take(played) {
                if let Some(o) = r.opponent {
                    let os = (o as usize)
                        .checked_sub(1)
                        .and_then(|k| scores.get(k))
                        .copied()
                        .unwrap_or(0);
                    buchholz += os;
                    let factor = match r.outcome {
                        Outcome::Win => 2,
                        Outcome::Draw => 1,
                        Outcome::Loss => 0,
                    };
                    sb += u64::from(os) * factor * 5;
                }
            }
            Standing {
                id: e.id,
                score: scores[i],
                buchholz,
                sonneborn_berger: sb,
                place: 0,
            }
        })
        .collect();
    let direct = |a: u32, b: u32| -> i32 {
        let mut total = 0;
        if let Some(e) = (a as usize).checked_sub(1).and_then(|k| t.entrants.get(k)) {
            for r in e.rounds.iter().take(played) {
                if r.opponent == Some(b) {
                    total += match r.outcome {
                        Outcome::Win => 1,
                        Outcome::Draw => 0,
                        Outcome::Loss => -1,
                    };
                }
            }
        }
        total
    };
    rows.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then(b.buchholz.cmp(&a.buchholz))
            .then(b.sonneborn_berger.cmp(&a.sonneborn_berger))
            .then(direct(b.id, a.id).cmp(&direct(a.id, b.id)))
            .then(a.id.cmp(&b.id))
    });
    for (i, row) in rows.iter_mut().enumerate() {
        row.place = i as u32 + 1;
    }
    rows
}

/// Rank (1-based place by score, then pairing number) per entrant index.
pub(crate) fn ranks(t: &Tournament) -> Vec<u32> {
    let played = t.played_rounds();
    let mut order: Vec<(u32, u32)> = t
        .entrants
        .iter()
        .map(|e| (t.score_after(e, played), e.id))
        .collect();
    order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out = vec![0; t.entrants.len()];
    for (place, (_, id)) in order.iter().enumerate() {
        if let Some(slot) = (*id as usize).checked_sub(1).and_then(|k| out.get_mut(k)) {
            *slot = place as u32 + 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{record_round, BoardResult, Pairing, Tournament};
    use super::*;

    #[test]
    fn tie_breaks_follow_the_results() {
        let mut t = Tournament::new("t", 4, 2);
        let r1 = Pairing {
            pairs: vec![(1, 2), (3, 4)],
            bye: None,
        };
        record_round(
            &mut t,
            &r1,
            &[BoardResult::WhiteWins, BoardResult::Draw],
            &[],
        )
        .unwrap();
        let r2 = Pairing {
            pairs: vec![(4, 1), (2, 3)],
            bye: None,
        };
        record_round(
            &mut t,
            &r2,
            &[BoardResult::BlackWins, BoardResult::BlackWins],
            &[],
        )
        .unwrap();
        let s = standings(&t);
        // Scores: 1 = 2.0, 3 = 1.5, 4 = 0.5, 2 = 0.0.
        let order: Vec<u32> = s.iter().map(|r| r.id).collect();
        assert_eq!(order, vec![1, 3, 4, 2]);
        let one = &s[0];
        assert_eq!(one.score, 20);
        // Opponents 2 (0.0) and 4 (0.5).
        assert_eq!(one.buchholz, 5);
        // Beat both: 0.0 + 0.5 = 0.5 point = 50 hundredths.
        assert_eq!(one.sonneborn_berger, 50);
        let three = &s[1];
        // Drew with 4 (0.5), beat 2 (0.0): 0.25 point.
        assert_eq!(three.sonneborn_berger, 25);
    }
}
