//! The Swiss of tables (tournament rules 2.6): each round of an Ultimate, Party or Nomic
//! event seats the active players at tables of the event's size. Pure and deterministic:
//! the same standings and history give the same round.
//!
//! The rules, in order:
//! 1. Players are ranked by score, then rating (players without one after those with one),
//!    then pairing number (the seeding draw). The ratings are the players' current ones in
//!    the event's game on its server, which the service reads just before each pairing
//!    ([`super::Tournament::ratings`]); a player counts as rated after one rated game.
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

use super::{
    refused, tenths, Board, MatchResult, PairOutcome, Paired, ResultEntry, StandingRow, Tournament,
    TournamentError, BY_GAME,
};
use crate::time::Timestamp;

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
pub fn cost_of(
    tables: &[Vec<u32>],
    score: &BTreeMap<u32, u32>,
    met: &BTreeSet<(u32, u32)>,
) -> Cost {
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
            let extra = self.tables[t].iter().fold((0, 0), |c, &q| {
                add(c, pair_cost(p, q, self.score, self.met))
            });
            self.tables[t].push(p);
            self.run(i + 1, add(cost, extra));
            self.tables[t].pop();
        }
    }
}

/// Improves `tables` by swapping two players of different tables while a swap lowers the cost
/// (the first such swap in table and seat order, each time).
fn improve(tables: &mut [Vec<u32>], score: &BTreeMap<u32, u32>, met: &BTreeSet<(u32, u32)>) {
    // The cost of `p` with the players of `t` other than `skip`, as signed numbers.
    let with = |p: u32, t: &[u32], skip: u32| -> (i64, i64) {
        t.iter()
            .filter(|&&q| q != p && q != skip)
            .fold((0, 0), |c, &q| {
                let (x, y) = pair_cost(p, q, score, met);
                (c.0 + x as i64, c.1 + y as i64)
            })
    };
    for _ in 0..200 {
        let mut better = false;
        'scan: for a in 0..tables.len() {
            for b in a + 1..tables.len() {
                for i in 0..tables[a].len() {
                    for j in 0..tables[b].len() {
                        let (x, y) = (tables[a][i], tables[b][j]);
                        let before = (
                            with(x, &tables[a], x).0 + with(y, &tables[b], y).0,
                            with(x, &tables[a], x).1 + with(y, &tables[b], y).1,
                        );
                        let after = (
                            with(x, &tables[b], y).0 + with(y, &tables[a], x).0,
                            with(x, &tables[b], y).1 + with(y, &tables[a], x).1,
                        );
                        if after < before {
                            tables[a][i] = y;
                            tables[b][j] = x;
                            better = true;
                            break 'scan;
                        }
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
    best.map_or_else(Vec::new, |(_, p)| {
        p.into_iter().map(|m| members[m]).collect()
    })
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

/// Competition ranks of `values` (lower is better): 1 + how many are strictly better.
pub fn competition_places(values: &[u32]) -> Vec<u32> {
    values
        .iter()
        .map(|v| 1 + values.iter().filter(|w| *w < v).count() as u32)
        .collect()
}

impl Tournament {
    /// Whether the event is a Swiss of tables (Ultimate, Party, Nomic).
    pub fn table_event(&self) -> bool {
        self.settings.game.tables()
    }

    /// Seats at a full table.
    pub fn table_size(&self) -> usize {
        self.settings.table.unwrap_or(4) as usize
    }

    /// Points in tenths for finishing in position `i` (from 0) at a table of `n`.
    fn position_points(&self, i: usize, n: usize) -> u32 {
        if self.settings.places.is_empty() {
            (n.saturating_sub(1 + i) as u32) * 10
        } else {
            self.settings.places.get(i).copied().unwrap_or(0) * 10
        }
    }

    /// Points in tenths of each seat for `places` (ties share the points of the places they
    /// cover, rounded down to a tenth).
    pub fn table_points(&self, places: &[u32]) -> Vec<u32> {
        let n = places.len();
        let places = competition_places(places);
        places
            .iter()
            .map(|&p| {
                let tied = places.iter().filter(|&&q| q == p).count();
                let start = (p as usize).saturating_sub(1);
                let sum: u32 = (start..start + tied)
                    .map(|i| self.position_points(i, n))
                    .sum();
                sum / tied.max(1) as u32
            })
            .collect()
    }

    /// A bye's points in tenths: the average of a full table's places, rounded down.
    pub fn table_bye_points(&self) -> u32 {
        let n = self.table_size();
        let sum: u32 = (0..n).map(|i| self.position_points(i, n)).sum();
        sum / n.max(1) as u32
    }

    /// `3/2/1/0`: the points by place at a full table.
    pub fn places_text(&self) -> String {
        let n = self.table_size();
        (0..n)
            .map(|i| tenths(self.position_points(i, n)))
            .collect::<Vec<_>>()
            .join("/")
    }

    /// The entrants seated at table `b`, in seat order.
    fn table_entrants(&self, b: &Board) -> Vec<u32> {
        b.players
            .iter()
            .map(|p| self.team_of(p).unwrap_or(0))
            .collect()
    }

    /// Each entrant's score in tenths after rounds up to `upto`.
    pub fn table_scores(&self, upto: u32) -> BTreeMap<u32, u32> {
        let mut score: BTreeMap<u32, u32> = self.teams.iter().map(|t| (t.number, 0)).collect();
        for b in self.boards.iter().filter(|b| b.round <= upto) {
            if !b.is_table() {
                *score.entry(b.white).or_default() += self.table_bye_points();
                continue;
            }
            let Some(r) = self.result(b.round, b.board) else {
                continue;
            };
            for (e, pts) in self
                .table_entrants(b)
                .into_iter()
                .zip(self.table_points(&r.places))
            {
                *score.entry(e).or_default() += pts;
            }
        }
        score
    }

    /// Pairs the next round of tables (the caller checked the round before is complete).
    pub(super) fn pair_table_round(&mut self) -> Result<PairOutcome, TournamentError> {
        let r = self.paired_rounds();
        let score = self.table_scores(r);
        let players: Vec<Seatable> = self
            .teams
            .iter()
            .filter(|t| !t.withdrawn)
            .map(|t| Seatable {
                id: t.number,
                score: score.get(&t.number).copied().unwrap_or(0),
                // The current rating the caller read just before (rule 1; to a tenth).
                rating: t
                    .players
                    .first()
                    .and_then(|p| self.ratings.get(p))
                    .map(|r| r.tenths as f64 / 10.0),
            })
            .collect();
        let min = self.settings.game.min_players() as usize;
        if players.len() < min {
            self.finished = true;
            return Ok(PairOutcome::Ended(format!(
                "too few players remain for a table ({} of at least {min}): the tournament is over. {}",
                players.len(),
                self.winner_line()
            )));
        }
        let history: Vec<Vec<u32>> = self
            .boards
            .iter()
            .filter(|b| b.is_table())
            .map(|b| self.table_entrants(b))
            .collect();
        let byes_had: Vec<u32> = self
            .boards
            .iter()
            .filter(|b| !b.is_table() && b.black == 0)
            .map(|b| b.white)
            .collect();
        let paired = pair_tables(&players, &history, &byes_had, self.table_size(), min);
        let round = r + 1;
        let name = |t: &Tournament, e: u32| {
            t.team(e)
                .and_then(|t| t.players.first().cloned())
                .unwrap_or_default()
        };
        let mut boards = Vec::new();
        for table in &paired.tables {
            boards.push(Board {
                round,
                board: boards.len() as u32 + 1,
                white: 0,
                black: 0,
                thread: None,
                players: table.iter().map(|&e| name(self, e)).collect(),
            });
        }
        for &e in &paired.byes {
            boards.push(Board {
                round,
                board: boards.len() as u32 + 1,
                white: e,
                black: 0,
                thread: None,
                players: vec![name(self, e)],
            });
        }
        self.boards.extend(boards.iter().cloned());
        let text = self.pairing_text(round);
        Ok(PairOutcome::Round(Paired {
            round,
            boards,
            text,
        }))
    }

    /// Records the seat order a table's game chose, if it seats the same players.
    pub fn reseat(&mut self, round: u32, board: u32, seated: &[String]) {
        if let Some(b) = self
            .boards
            .iter_mut()
            .find(|b| b.round == round && b.board == board && b.is_table())
        {
            let mut x = b.players.clone();
            let mut y = seated.to_vec();
            x.sort();
            y.sort();
            if x == y {
                b.players = seated.to_vec();
            }
        }
    }

    /// A table's line: `table 2: a, b, c, d [1 2 2 4]`.
    pub(super) fn table_line(&self, b: &Board) -> String {
        if !b.is_table() {
            let bye = self.table_bye_points();
            return format!(
                "bye: {} ({} point{})",
                self.board_label(b, b.white),
                tenths(bye),
                if bye == 10 { "" } else { "s" }
            );
        }
        let result = match self.result(b.round, b.board) {
            Some(r) => format!(
                " [{}]",
                r.places
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            None => String::new(),
        };
        format!("table {}: {}{result}", b.board, b.players.join(", "))
    }

    /// `round 1 table 2: 1. a, 2. b, 2. c, 4. d`.
    fn places_text_of(&self, b: &Board, places: &[u32]) -> String {
        let mut order: Vec<(u32, &String)> = places.iter().copied().zip(&b.players).collect();
        order.sort_by_key(|(p, _)| *p);
        format!(
            "round {} table {}: {}",
            b.round,
            b.board,
            order
                .iter()
                .map(|(p, n)| format!("{p}. {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }

    fn put_places(&mut self, b: &Board, places: Vec<u32>, by: &str, now: Timestamp) {
        self.results
            .retain(|r| !(r.round == b.round && r.board == b.board));
        self.results.push(ResultEntry {
            round: b.round,
            board: b.board,
            result: MatchResult::Placed,
            set_by: by.to_string(),
            time: now,
            places,
        });
        self.results.sort_by_key(|r| (r.round, r.board));
    }

    /// An organiser sets a table's places in seat order (`None`: follow the game again).
    ///
    /// # Errors
    /// No such table, or not one place per seat.
    pub fn set_table_result(
        &mut self,
        round: u32,
        board: u32,
        places: Option<Vec<u32>>,
        by: &str,
        now: Timestamp,
    ) -> Result<String, TournamentError> {
        let b = self
            .board(round, board)
            .filter(|b| b.is_table())
            .cloned()
            .ok_or_else(|| refused(format!("there is no table {board} in round {round}")))?;
        let mut text = match places {
            Some(p) => {
                if p.len() != b.players.len() || p.contains(&0) {
                    return Err(refused(format!(
                        "table {board} seats {}: give one place a seat, in seat order, like {}",
                        b.players.len(),
                        (1..=b.players.len())
                            .map(|i| i.to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    )));
                }
                let p = competition_places(&p);
                self.put_places(&b, p.clone(), by, now);
                format!("{} (set by {by})", self.places_text_of(&b, &p))
            }
            None => {
                self.results
                    .retain(|r| !(r.round == round && r.board == board && r.set_by != BY_GAME));
                format!("round {round} table {board} follows its game again")
            }
        };
        text.push_str(&self.round_news(round));
        Ok(text)
    }

    /// The game of table `thread` now places its players (`None`: not over). Results an
    /// organiser set stand. Returns the news for the tournament thread.
    pub fn table_game_result(
        &mut self,
        thread: &str,
        places: Option<Vec<(String, u32)>>,
        now: Timestamp,
    ) -> Option<String> {
        let (round, board) = self.match_of_thread(thread)?;
        let b = self.board(round, board)?.clone();
        let current = self.result(round, board).cloned();
        if current.as_ref().is_some_and(|c| c.set_by != BY_GAME) {
            return None;
        }
        match places {
            Some(by_user) => {
                let last = b.players.len() as u32;
                let seat_places: Vec<u32> = b
                    .players
                    .iter()
                    .map(|p| {
                        by_user
                            .iter()
                            .find(|(u, _)| u == p)
                            .map_or(last, |(_, place)| *place)
                    })
                    .collect();
                let seat_places = competition_places(&seat_places);
                if current.as_ref().map(|c| &c.places) == Some(&seat_places) {
                    return None;
                }
                self.put_places(&b, seat_places.clone(), BY_GAME, now);
                let mut text = self.places_text_of(&b, &seat_places);
                text.push_str(&self.round_news(round));
                Some(text)
            }
            None if current.is_some() && round == self.paired_rounds() && !self.finished => {
                Some(self.withdraw_reverted(round, board, "table"))
            }
            None => None,
        }
    }

    /// Standings of a Swiss of tables: points, then the sum of table-mates' scores, then the
    /// direct encounter (how often a player finished ahead of the others tied with them),
    /// then pairing number.
    pub(super) fn table_standings(&self) -> Vec<StandingRow> {
        let upto = self.complete_rounds();
        let score = self.table_scores(upto);
        let played: Vec<(Vec<u32>, Vec<u32>)> = self
            .boards
            .iter()
            .filter(|b| b.is_table() && b.round <= upto)
            .filter_map(|b| {
                self.result(b.round, b.board)
                    .map(|r| (self.table_entrants(b), r.places.clone()))
            })
            .collect();
        let mates = |e: u32| -> u32 {
            played
                .iter()
                .filter(|(es, _)| es.contains(&e))
                .flat_map(|(es, _)| es.iter().filter(|&&m| m != e))
                .map(|m| score.get(m).copied().unwrap_or(0))
                .sum()
        };
        let mut rows: Vec<(u32, u32, u32)> = self
            .teams
            .iter()
            .map(|t| {
                (
                    t.number,
                    score.get(&t.number).copied().unwrap_or(0),
                    mates(t.number),
                )
            })
            .collect();
        let ahead = |a: u32, tied: &[u32]| -> i64 {
            let mut n = 0i64;
            for (es, places) in &played {
                let Some(i) = es.iter().position(|&x| x == a) else {
                    continue;
                };
                for (j, &o) in es.iter().enumerate() {
                    if o != a && tied.contains(&o) {
                        n += match places[i].cmp(&places[j]) {
                            std::cmp::Ordering::Less => 1,
                            std::cmp::Ordering::Greater => -1,
                            std::cmp::Ordering::Equal => 0,
                        };
                    }
                }
            }
            n
        };
        let key_of = |r: &(u32, u32, u32)| (r.1, r.2);
        let direct: BTreeMap<u32, i64> = rows
            .iter()
            .map(|r| {
                let tied: Vec<u32> = rows
                    .iter()
                    .filter(|o| key_of(o) == key_of(r))
                    .map(|o| o.0)
                    .collect();
                (r.0, ahead(r.0, &tied))
            })
            .collect();
        rows.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then(b.2.cmp(&a.2))
                .then(direct.get(&b.0).cmp(&direct.get(&a.0)))
                .then(a.0.cmp(&b.0))
        });
        rows.iter()
            .enumerate()
            .map(|(i, &(e, s, m))| {
                let team = self.team(e);
                StandingRow {
                    place: i as u32 + 1,
                    team: e,
                    players: team.map(|t| t.players.clone()).unwrap_or_default(),
                    score: s,
                    buchholz: m,
                    sonneborn_berger: 0,
                    losses: 0,
                    status: match (team.is_some_and(|t| t.withdrawn), i == 0 && self.finished) {
                        (true, _) => "withdrawn".to_string(),
                        (false, true) => "champion".to_string(),
                        (false, false) => "active".to_string(),
                    },
                }
            })
            .collect()
    }

    /// The standings of a Swiss of tables as text.
    pub(super) fn table_standings_text(&self) -> String {
        let mut text = format!(
            "{}: standings after round {} ({})",
            self.name,
            self.complete_rounds(),
            self.format_text()
        );
        for r in self.table_standings() {
            let status = match r.status.as_str() {
                "active" => String::new(),
                other => format!(", {other}"),
            };
            text.push_str(&format!(
                "\n{}. {} {} (table-mates {}{status})",
                r.place,
                self.team_label(r.team),
                tenths(r.score),
                tenths(r.buchholz)
            ));
        }
        if self.finished {
            text.push('\n');
            text.push_str(&self.winner_line());
        }
        text
    }

    /// The export of a Swiss of tables: a plain table, one line a player, with each round's
    /// table and place (`t2:1`) or bye.
    pub fn table_export(&self) -> String {
        let rounds = self.paired_rounds();
        let mut text = format!(
            "{}: {} after round {}\n# place player points table-mates",
            self.name,
            self.format_text(),
            self.complete_rounds()
        );
        for r in 1..=rounds {
            text.push_str(&format!(" r{r}"));
        }
        for row in self.table_standings() {
            text.push_str(&format!(
                "\n{} {} {} {}",
                row.place,
                self.team_label(row.team),
                tenths(row.score),
                tenths(row.buchholz)
            ));
            for r in 1..=rounds {
                let cell = self
                    .round_boards(r)
                    .into_iter()
                    .find_map(|b| {
                        if !b.is_table() {
                            return (b.white == row.team).then(|| "bye".to_string());
                        }
                        let seat = self.table_entrants(b).iter().position(|&e| e == row.team)?;
                        Some(match self.result(r, b.board) {
                            Some(res) => format!(
                                "t{}:{}",
                                b.board,
                                res.places.get(seat).copied().unwrap_or(0)
                            ),
                            None => format!("t{}:-", b.board),
                        })
                    })
                    .unwrap_or_else(|| "-".to_string());
                text.push(' ');
                text.push_str(&cell);
            }
        }
        text
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
    fn rating_breaks_a_score_tie_before_the_pairing_number() {
        // Nine players level on 2 points: by pairing number, 9 sits out.
        let mut players = field(9);
        for p in &mut players {
            p.score = 20;
        }
        let unrated = pair_tables(&players, &[], &[], 4, 4);
        assert_eq!(unrated.tables, vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
        assert_eq!(unrated.byes, vec![9]);
        // 9 and 5 rated (9 higher): they rank first, the unrated after them by number.
        players[8].rating = Some(30.0);
        players[4].rating = Some(20.0);
        let order: Vec<u32> = ranked(&players).iter().map(|p| p.id).collect();
        assert_eq!(order, vec![9, 5, 1, 2, 3, 4, 6, 7, 8]);
        let rated = pair_tables(&players, &[], &[], 4, 4);
        assert_eq!(rated.tables, vec![vec![9, 5, 1, 2], vec![3, 4, 6, 7]]);
        assert_eq!(rated.byes, vec![8]);
        // A higher score still comes first, whatever the ratings.
        players[7].score = 30;
        let order: Vec<u32> = ranked(&players).iter().map(|p| p.id).collect();
        assert_eq!(order, vec![8, 9, 5, 1, 2, 3, 4, 6, 7]);
    }

    #[test]
    fn a_table_events_pairing_ranks_equal_scores_by_the_ratings_handed_over() {
        let settings = super::super::Settings {
            game: super::super::EventGame::Ultimate,
            losses_to_eliminate: 0,
            rounds: Some(3),
            table: Some(4),
            ..super::super::Settings::default()
        };
        // The first table of round 1 (names by pairing number), `rated` the pairing numbers
        // handed a rating (in tenths) after the draw seeded the players.
        let first_table = |rated: &[(usize, i64)]| {
            let mut t = Tournament::new("quad", "Quad", "org", settings.clone(), 0);
            for i in 1..=8 {
                t.signup(&format!("p{i}"), &[], i).expect("signup");
            }
            t.seed_players(5).expect("seeded");
            let name = |t: &Tournament, n: usize| t.teams[n - 1].players[0].clone();
            for &(n, tenths) in rated {
                let seed = super::super::Seed {
                    tenths,
                    shown: tenths.to_string(),
                };
                t.ratings.insert(name(&t, n), seed);
            }
            let Ok(PairOutcome::Round(r)) = t.pair_next() else {
                panic!("a round");
            };
            let want = |ns: &[usize]| ns.iter().map(|&n| name(&t, n)).collect::<Vec<_>>();
            (
                r.boards[0].players.clone(),
                want(&[1, 2, 3, 4]),
                want(&[8, 7, 1, 2]),
            )
        };
        let (drawn, by_number, _) = first_table(&[]);
        assert_eq!(drawn, by_number);
        // Numbers 8 and 7 rated (8 higher): all on 0 points, they lead table 1.
        let (rated, _, by_rating) = first_table(&[(7, 250), (8, 300)]);
        assert_eq!(rated, by_rating);
    }

    #[test]
    fn byes_go_to_the_lowest_ranked_without_one() {
        let mut players = field(5);
        players[4].score = 30;
        let r = pair_tables(&players, &[], &[4], 4, 4);
        assert_eq!(r.byes, vec![3]);
    }
}
