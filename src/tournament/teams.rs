//! Forming teams from signups (tournament rules 2.1): a named trio is a team, a named pair gets
//! a random third from the solo players, the other solo players are grouped at random, and
//! whoever is left over (one or two players) is a substitute. Everything random comes from one
//! seed.

use crate::games::seeded::{shuffle, Chain, Draw};

/// How a team came together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Three players who named each other.
    Trio,
    /// Two who named each other, plus a random solo player.
    PairPlusOne,
    /// Solo players drawn at random.
    Drawn,
}

impl Origin {
    /// How the formation report describes it.
    pub fn describe(self) -> &'static str {
        match self {
            Origin::Trio => "named trio",
            Origin::PairPlusOne => "named pair + random third",
            Origin::Drawn => "drawn at random",
        }
    }
}

/// The outcome of a formation: teams in seeding order and the substitutes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Formation {
    /// New teams (three players each) with how each was formed.
    pub teams: Vec<(Vec<String>, Origin)>,
    /// Players left over.
    pub substitutes: Vec<String>,
}

/// Groups of players who named each other: the connected parts of the "named as a mate"
/// relation among `players` (in signup order), each in signup order, ordered by their first
/// member's signup.
pub fn groups(players: &[String], mates: &[(String, String)]) -> Vec<Vec<String>> {
    let index = |p: &str| players.iter().position(|q| q == p);
    let mut parent: Vec<usize> = (0..players.len()).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (a, b) in mates {
        if let (Some(i), Some(j)) = (index(a), index(b)) {
            let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
            if ri != rj {
                parent[ri.max(rj)] = ri.min(rj);
            }
        }
    }
    let mut out: Vec<(usize, Vec<String>)> = Vec::new();
    for (i, p) in players.iter().enumerate() {
        let r = find(&mut parent, i);
        match out.iter_mut().find(|(root, _)| *root == r) {
            Some((_, g)) => g.push(p.clone()),
            None => out.push((r, vec![p.clone()])),
        }
    }
    out.into_iter().map(|(_, g)| g).collect()
}

/// Forms teams from `players` (in signup order) and the mate links among them, with `seed`.
/// Groups larger than three never reach here (signup refuses them); should one appear, its
/// players are treated as solo players.
pub fn form(players: &[String], mates: &[(String, String)], seed: u64) -> Formation {
    let mut rng = Chain(seed);
    let mut trios = Vec::new();
    let mut pairs = Vec::new();
    let mut solos = Vec::new();
    for g in groups(players, mates) {
        match g.len() {
            3 => trios.push(g),
            2 => pairs.push(g),
            _ => solos.extend(g),
        }
    }
    shuffle(&mut rng, &mut solos);
    let mut teams: Vec<(Vec<String>, Origin)> =
        trios.into_iter().map(|t| (t, Origin::Trio)).collect();
    let mut pool = Vec::new();
    for mut pair in pairs {
        if solos.is_empty() {
            pool.extend(pair);
        } else {
            let k = rng.below(solos.len());
            pair.push(solos.remove(k));
            teams.push((pair, Origin::PairPlusOne));
        }
    }
    if !pool.is_empty() {
        // Pairs that found no third join the solo players and are drawn with them.
        pool.extend(solos);
        solos = pool;
        shuffle(&mut rng, &mut solos);
    }
    let mut chunks = solos.chunks_exact(3);
    for c in chunks.by_ref() {
        teams.push((c.to_vec(), Origin::Drawn));
    }
    let substitutes = chunks.remainder().to_vec();
    // Seeding order (the Swiss pairing numbers) is drawn too, so nobody is favoured by
    // having signed up as a trio or early.
    shuffle(&mut rng, &mut teams);
    Formation { teams, substitutes }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("p{i}")).collect()
    }

    #[test]
    fn trios_pairs_and_solos() {
        let players = names(11);
        let mates = vec![
            ("p0".to_string(), "p1".to_string()),
            ("p0".to_string(), "p2".to_string()),
            ("p3".to_string(), "p4".to_string()),
        ];
        for seed in 0..50 {
            let f = form(&players, &mates, seed);
            assert_eq!(f.teams.len(), 3);
            assert_eq!(f.substitutes.len(), 2);
            let trio = f.teams.iter().find(|t| t.1 == Origin::Trio).expect("trio");
            assert_eq!(trio.0, vec!["p0", "p1", "p2"]);
            let pair = f
                .teams
                .iter()
                .find(|t| t.1 == Origin::PairPlusOne)
                .expect("pair");
            assert_eq!(&pair.0[..2], &["p3", "p4"]);
            let mut all: Vec<String> = f.teams.iter().flat_map(|t| t.0.clone()).collect();
            all.extend(f.substitutes.clone());
            all.sort();
            let mut want = players.clone();
            want.sort();
            assert_eq!(all, want, "everyone is placed exactly once");
        }
    }

    #[test]
    fn same_seed_same_teams_other_seed_differs() {
        let players = names(12);
        let a = form(&players, &[], 7);
        assert_eq!(a, form(&players, &[], 7));
        assert!((0..20).any(|s| form(&players, &[], s) != a));
    }

    #[test]
    fn pairs_without_a_third_are_drawn_with_the_rest() {
        let players = names(4);
        let mates = vec![
            ("p0".to_string(), "p1".to_string()),
            ("p2".to_string(), "p3".to_string()),
        ];
        let f = form(&players, &mates, 3);
        assert_eq!(f.teams.len(), 1);
        assert_eq!(f.substitutes.len(), 1);
        assert_eq!(f.teams[0].1, Origin::Drawn);
    }
}
