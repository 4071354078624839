//! The Swiss of tables (tournament rules 2.6): each round of an Ultimate, Party or Nomic
//! event seats the active players at tables of the event's size. Pure and deterministic:
//! the same standings and history give the same round.
//!
//! The rules, in order:
//! 1. Players are ranked by score, then rating (players without one after those with one),
//!    then pairing number (the seeding draw).
//! 2. With n players and tables of `size`, there are ⌊n / size⌋ full tables; the r = n mod
//!    size left over form one smaller table if the game starts with r players, else they get
//!    byes: the lowest-ranked among those with the fewest byes so far.
//! 3. The seated players are cut into tables of those sizes minimising, in order, the number
//!    of pairs at one table who sat together before, then the sum over those pairs of their
//!    score differences. The search starts from the ranked list cut in order (improved by
//!    swapping players while a swap helps) and is exhaustive on small fields (a bounded
//!    branch and bound; its node budget only binds on large fields).
//! 4. Tables are numbered by their best-ranked player. Within a table, seats (Ultimate's
//!    colours, Party's and Nomic's turn order) go to balance each player's seats: the least
//!    total of "times this player sat in this seat before", ties to the better-ranked player
//!    in the earlier seat.

use std::collections::{BTreeMap, BTreeSet};

/// A player to seat.
#[derive(Clone, Debug, PartialEq)]
pub struct Seatable {
    /// Pairing number (from the seeding draw).
    pub id: u32,
    /// Score so far, in tenths.
    pub score: u32,
    /// Rating, if the player has one.
    pub rating: Option<f64>,
}

/// A round of tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableRound {
    /// Tables by number, each in seat order.
    pub tables: Vec<Vec<u32>>,
    /// Players with a bye.
    pub byes: Vec<u32>,
}

/// Node budget of the exhaustive search.
const BUDGET: u64 = 400_000;

/// Cost of a seating: (pairs who met before, sum of their score differences).
type Cost = (u64, u64);

/// The players ranked by rule 1.
pub fn ranked(players: &[Seatable]) -> Vec<Seatable> {
    let mut v = players.to_vec();
    v.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then_with(|| match (a.rating, b.rating) {
                (Some(x), Some(y)) => y.partial_cmp(&x).unwrap_or(std::cmp::Ordering::Equal),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            })
            .then(a.id.cmp(&b.id))
    });
    v
}

/// The table sizes and the number of byes for `n` players (rule 2).
pub fn table_sizes(n: usize, size: usize, min: usize) -> (Vec<usize>, usize) {
    let size = size.max(1);
    let mut sizes = vec![size; n / size];
    let r = n % size;
    if r == 0 {
        (sizes, 0)
    } else if r >= min.max(1) {
        sizes.push(r);
        (sizes, 0)
    } else {
        (sizes, r)
    }
}

/// Pairs who sat at one table, each pair once (smaller id first), from earlier rounds.
pub fn met_pairs(history: &[Vec<u32>]) -> BTreeSet<(u32, u32)> {
    let mut met = BTreeSet::new();
    for t in history {
        for (i, &a) in t.iter().enumerate() {
            for &b in &t[i + 1..] {
                met.insert((a.min(b), a.max(b)));
            }
        }
    }
    met
}

/// The cost of a set of tables (rule 3).
pub fn cost_of(tables: &[Vec<u32>], score: &BTreeMap<u32, u32>, met: &BTreeSet<(u32, u32)>) -> Cost {
    let mut c = (0, 0);
    for t in tables {
        for (i, &a) in t.iter().enumerate() {
            for &b in &t[i + 1..] {
                let (x, y) = pair_cost(a, b, score, met);
                c.0 += x;
                c.1 += y;
            }
        }
    }
    c
}

fn pair_cost(a: u32, b: u32, score: &BTreeMap<u32, u32>, met: &BTreeSet<(u32, u32)>) -> Cost {
    let repeat = u64::from(met.contains(&(a.min(b), a.max(b))));
    let (sa, sb) = (
        score.get(&a).copied().unwrap_or(0),
        score.get(&b).copied().unwrap_or(0),
    );
    (repeat, u64::from(sa.abs_diff(sb)))
}

fn add(a: Cost, b: Cost) -> Cost {
    (a.0 + b.0, a.1 + b.1)
}

/// The search of rule 3 over the ranked players `order`.
struct Search<'a> {
    order: &'a [u32],
    sizes: &'a [usize],
    score: &'a BTreeMap<u32, u32>,
    met: &'a BTreeSet<(u32, u32)>,
    tables: Vec<Vec<u32>>,
    best: Vec<Vec<u32>>,
    best_cost: Cost,
    nodes: u64,
}

impl Search<'_> {
    fn run(&mut self, i: usize, cost: Cost) {
        self.nodes += 1;
        if self.nodes > BUDGET || cost >= self.best_cost {
            return;
        }
        if i == self.order.len() {
            self.best_cost = cost;
            self.best.clone_from(&self.tables);
            return;
        }
        let p = self.order[i];
        // Tables already opened (not full), then the first unopened table of each size.
        let mut choices: Vec<usize> = (0..self.tables.len())
            .filter(|&t| !self.tables[t].is_empty() && self.tables[t].len() < self.sizes[t])
            .collect();
        let mut sizes_seen = Vec::new();
        for t in 0..self.tables.len() {
            if self.tables[t].is_empty() && !sizes_seen.contains(&self.sizes[t]) {
                sizes_seen.push(self.sizes[t]);
                choices.push(t);
            }
        }
        for t in choices {
            let extra = self.tables[t]
                .iter()
                .fold((0, 0), |c, &q| add(c, pair_cost(p, q, self.score, self.met)));
            self.tables[t].push(p);
            self.run(i + 1, add(cost, extra));
            self.tables[t].pop();
        }
    }
}

/// Improves `tables` by swapping two players of different tables while a swap lowers the cost.
fn improve(tables: &mut [Vec<u32>], score: &BTreeMap<u32, u32>, met: &BTreeSet<(u32, u32)>) {
    let mut cost = cost_of(tables, score, met);
    for _ in 0..200 {
        let mut better = false;
        'scan: for a in 0..tables.len() {
            for b in a + 1..tables.len() {
                for i in 0..tables[a].len() {
                    for j in 0..tables[b].len() {
                        let (x, y) = (tables[a][i], tables[b][j]);
                        tables[a][i] = y;
                        tables[b][j] = x;
                        let c = cost_of(tables, score, met);
                        if c < cost {
                            cost = c;
                            better = true;
                            break 'scan;
                        }
                        tables[a][i] = x;
                        tables[b][j] = y;
                    }
                }
            }
        }
        if !better {
            break;
        }
    }
}

/// Seats one table's players (rule 4): `members` in rank order, `seats[p][s]` the times
/// player p sat in seat s before.
fn seat(members: &[u32], seats: &BTreeMap<u32, Vec<u32>>) -> Vec<u32> {
    let k = members.len();
    let times = |p: u32, s: usize| -> u64 {
        seats
            .get(&p)
            .and_then(|v| v.get(s))
            .copied()
            .map_or(0, u64::from)
    };
    // Permutations in lexicographic order of member index: the first of least cost wins.
    let mut perm: Vec<usize> = (0..k).collect();
    let mut best: Option<(u64, Vec<usize>)> = None;
    loop {
        let c: u64 = perm
            .iter()
            .enumerate()
            .map(|(s, &m)| times(members[m], s))
            .sum();
        if best.as_ref().is_none_or(|(b, _)| c < *b) {
            best = Some((c, perm.clone()));
        }
        // Next permutation.
        let Some(i) = (1..k).rev().find(|&i| perm[i - 1] < perm[i]) else {
            break;
        };
        let j = (i..k).rev().find(|&j| perm[j] > perm[i - 1]).unwrap_or(i);
        perm.swap(i - 1, j);
        perm[i..].reverse();
    }
    best.map_or_else(Vec::new, |(_, p)| p.into_iter().map(|m| members[m]).collect())
}

/// Pairs a round of tables (rules 1–4): `players` the active players, `history` every
/// earlier table in seat order, `byes_had` every earlier bye (one entry per bye), `size` the
/// table size and `min` the fewest players a game starts with.
pub fn pair_tables(
    players: &[Seatable],
    history: &[Vec<u32>],
    byes_had: &[u32],
    size: usize,
    min: usize,
) -> TableRound {
    let ranked = ranked(players);
    let (sizes, nbyes) = table_sizes(ranked.len(), size, min);
    // Byes: the fewest byes so far, then the lowest rank.
    let mut candidates: Vec<(usize, usize, u32)> = ranked
        .iter()
        .enumerate()
        .map(|(rank, p)| {
            (
                byes_had.iter().filter(|&&b| b == p.id).count(),
                usize::MAX - rank,
                p.id,
            )
        })
        .collect();
    candidates.sort_unstable();
    let byes: Vec<u32> = candidates.iter().take(nbyes).map(|c| c.2).collect();
    let order: Vec<u32> = ranked
        .iter()
        .map(|p| p.id)
        .filter(|id| !byes.contains(id))
        .collect();
    let score: BTreeMap<u32, u32> = ranked.iter().map(|p| (p.id, p.score)).collect();
    let met = met_pairs(history);
    // The ranked list cut in order, improved by swaps: the bound the search starts from.
    let mut start = Vec::new();
    let mut at = 0;
    for &s in &sizes {
        start.push(order[at..at + s].to_vec());
        at += s;
    }
    improve(&mut start, &score, &met);
    let start_cost = cost_of(&start, &score, &met);
    let mut search = Search {
        order: &order,
        sizes: &sizes,
        score: &score,
        met: &met,
        tables: vec![Vec::new(); sizes.len()],
        best: start,
        best_cost: start_cost,
        nodes: 0,
    };
    search.run(0, (0, 0));
    let rank: BTreeMap<u32, usize> = order.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    let mut seats: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for t in history {
        for (s, &p) in t.iter().enumerate() {
            let v = seats.entry(p).or_default();
            if v.len() <= s {
                v.resize(s + 1, 0);
            }
            v[s] += 1;
        }
    }
    let mut tables: Vec<Vec<u32>> = search
        .best
        .into_iter()
        .map(|mut t| {
            t.sort_by_key(|p| rank.get(p).copied().unwrap_or(usize::MAX));
            t
        })
        .collect();
    tables.sort_by_key(|t| t.first().and_then(|p| rank.get(p).copied()));
    TableRound {
        tables: tables.iter().map(|t| seat(t, &seats)).collect(),
        byes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(n: u32) -> Vec<Seatable> {
        (1..=n)
            .map(|id| Seatable {
                id,
                score: 0,
                rating: None,
            })
            .collect()
    }

    #[test]
    fn the_first_round_cuts_the_draw_in_order() {
        let r = pair_tables(&field(9), &[], &[], 4, 4);
        assert_eq!(r.tables, vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
        assert_eq!(r.byes, vec![9]);
        let r = pair_tables(&field(10), &[], &[], 4, 2);
        assert_eq!(r.tables.len(), 3);
        assert_eq!(r.tables[2], vec![9, 10]);
    }

    #[test]
    fn a_second_round_avoids_table_mates_and_rotates_seats() {
        let first = pair_tables(&field(8), &[], &[], 4, 4);
        let second = pair_tables(&field(8), &first.tables, &[], 4, 4);
        let met = met_pairs(&first.tables);
        let again = cost_of(&second.tables, &BTreeMap::new(), &met).0;
        // Eight players at two tables of four: each table of round 2 must hold at least
        // two pairs from one table of round 1 (pigeonhole: 2+2 split gives 2 pairs a table).
        assert_eq!(again, 4);
        // Player 1 sat in seat 0 before: not again.
        let t = second.tables.iter().find(|t| t.contains(&1)).unwrap();
        assert_ne!(t[0], 1);
    }

    #[test]
    fn byes_go_to_the_lowest_ranked_without_one() {
        let mut players = field(5);
        players[4].score = 30;
        let r = pair_tables(&players, &[], &[4], 4, 4);
        assert_eq!(r.byes, vec![3]);
    }
}
