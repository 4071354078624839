//! The FIDE Dutch system (2025 rules) as a sequence of maximum-weight
//! matchings, following the weighting scheme of bbpPairings.
//!
//! Every pairing criterion becomes a bit field of one wide edge weight; the
//! brackets are processed from the top score group down, and each decision
//! (which moved-down entrants are paired, which entrants are exchanged, who
//! is paired with whom) is fixed by re-solving the matching with small
//! adjustments to the weights of one entrant's edges.

// Index loops mirror the vertex/position arithmetic of the algorithm.
#![allow(clippy::needless_range_loop)]

use std::collections::HashMap;

use super::matching::Matcher;
use super::model::{Colour, RoundRecord, Tournament};
use super::wide::{Weight, Wide};
use super::{Pairing, SwissError};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Float {
    Down,
    Up,
    None,
}

/// Per-entrant data needed for pairing the next round.
#[derive(Clone, Debug)]
struct Info {
    /// 0-based pairing number.
    id: usize,
    /// Effective pairing number among valid entrants (0-based).
    rank: usize,
    score: u32,
    imbalance: u32,
    preference: Option<Colour>,
    repeated: Option<Colour>,
    strong: bool,
    played_games: u32,
    bye_eligible: bool,
    /// Float in the previous round and the one before (index 0 = 1 round back).
    floats: [Float; 2],
}

impl Info {
    fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }
    fn absolute_preference(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

fn bits_to_represent(value: usize) -> u32 {
    usize::BITS - value.leading_zeros()
}

fn prefs_compatible(a: Option<Colour>, b: Option<Colour>) -> bool {
    a != b || a.is_none() || b.is_none()
}

struct Context<'t> {
    t: &'t Tournament,
    played_rounds: usize,
    /// Sorted (score descending, rank ascending) present entrants.
    players: Vec<Info>,
    /// Compatibility (absolute criteria) between sorted indices.
    compatible: Vec<bool>,
    score_shift: HashMap<u32, u32>,
    groups_shift: u32,
    group_bits: u32,
}

impl Context<'_> {
    fn compatible(&self, a: usize, b: usize) -> bool {
        self.compatible[a * self.players.len() + b]
    }

    fn shift_of(&self, score: u32) -> u32 {
        self.score_shift.get(&score).copied().unwrap_or(0)
    }

    fn bye_candidate(&self, p: &Info, bye_score: u32) -> bool {
        p.bye_eligible && p.score <= bye_score
    }

    /// Total number of bits of the basic edge weight below the top field.
    fn total_shift(&self) -> u32 {
        let s = self.group_bits;
        let g = self.groups_shift;
        let mut total = s + g + s + g + 2 * s + 4 * s;
        if self.played_rounds >= 1 {
            total += 2 * s + 2 * g;
        }
        if self.played_rounds >= 2 {
            total += 2 * s + 2 * g;
        }
        total + 3 * s + 1
    }
}

fn bit<W: Weight>(pos: u32) -> W {
    W::from_u64(1).shl(pos)
}

struct ByeData {
    bye_score: u32,
    single_downfloater_is_bye: bool,
    unplayed_ranks: HashMap<u32, u64>,
}

/// The basic edge weight between `hi` (higher in the order) and `lo`.
fn edge_weight<W: Weight>(
    cx: &Context,
    hi: usize,
    lo: usize,
    lo_in_current: bool,
    lo_in_next: bool,
    bye: &ByeData,
) -> W {
    if !cx.compatible(hi, lo) {
        return W::zero();
    }
    let h = &cx.players[hi];
    let l = &cx.players[lo];
    let s = cx.group_bits;
    let g = cx.groups_shift;
    let mut r = W::from_u64(
        1 + u64::from(!cx.bye_candidate(h, bye.bye_score))
            + u64::from(!cx.bye_candidate(l, bye.bye_score)),
    );
    // Pairs in the current bracket.
    r = r.shl(s).or_u64(u64::from(lo_in_current));
    // Scores paired in the current bracket.
    r = r.shl(g);
    if lo_in_current {
        r = r.add(bit(cx.shift_of(h.score)));
    }
    // Pairs in the next bracket.
    r = r.shl(s).or_u64(u64::from(lo_in_next));
    // Scores paired in the next bracket.
    r = r.shl(g);
    if lo_in_next {
        r = r.add(bit(cx.shift_of(h.score)));
    }
    // Unplayed games of the bye assignee.
    r = r.shl(2 * s);
    if bye.single_downfloater_is_bye {
        if h.score == bye.bye_score {
            r = r.add(W::from_u64(
                bye.unplayed_ranks
                    .get(&h.played_games)
                    .copied()
                    .unwrap_or(0),
            ));
        }
        if l.score == bye.bye_score {
            r = r.add(W::from_u64(
                bye.unplayed_ranks
                    .get(&l.played_games)
                    .copied()
                    .unwrap_or(0),
            ));
        }
    }
    // Colour preferences (player = lower, opponent = higher).
    let m = lo_in_current;
    let (p, o) = (l, h);
    r = r.shl(s).or_u64(u64::from(
        m && (!p.absolute_imbalance() || !o.absolute_imbalance() || p.preference != o.preference),
    ));
    let second = !p.absolute_preference()
        || !o.absolute_preference()
        || p.preference != o.preference
        || if p.imbalance == o.imbalance {
            p.repeated.is_none() || p.repeated != o.repeated
        } else {
            let which = if p.imbalance > o.imbalance { o } else { p };
            which.repeated != p.preference.map(Colour::invert)
        };
    r = r.shl(s).or_u64(u64::from(m && second));
    r = r
        .shl(s)
        .or_u64(u64::from(m && prefs_compatible(p.preference, o.preference)));
    let fourth = (!p.strong && !p.absolute_preference())
        || (!o.strong && !o.absolute_preference())
        || (p.absolute_preference() && o.absolute_preference())
        || p.preference != o.preference;
    r = r.shl(s).or_u64(u64::from(m && fourth));
    let cur = lo_in_current;
    let lower_score = h.score > l.score;
    for back in 0..2 {
        if cx.played_rounds > back {
            r = r.shl(s);
            if cur {
                r = r.add(W::from_u64(
                    u64::from(l.floats[back] == Float::Down)
                        + u64::from(h.score <= l.score && h.floats[back] == Float::Down),
                ));
            }
            r = r.shl(s);
            if cur {
                r = r.or_u64(u64::from(!(lower_score && l.floats[back] == Float::Up)));
            }
        }
    }
    for back in 0..2 {
        if cx.played_rounds > back {
            r = r.shl(g);
            if cur {
                if l.floats[back] == Float::Down {
                    r = r.add(bit(cx.shift_of(l.score)));
                }
                if h.floats[back] == Float::Down {
                    r = r.add(bit(cx.shift_of(h.score)));
                }
            }
            r = r.shl(g);
            if cur && !(l.floats[back] == Float::Up && lower_score) {
                r = r.add(bit(cx.shift_of(h.score)));
            }
        }
    }
    r.shl(3 * s + 1)
}

/// Build the per-entrant data. Returns the context, or an error.
fn build_context(t: &Tournament) -> Result<Context<'_>, SwissError> {
    let mut pr = t.played_rounds();
    // bbpPairings: if every entrant already has a record for the next
    // round, that round counts as played.
    if !t.entrants.is_empty() && t.entrants.iter().all(|e| e.rounds.len() > pr) {
        pr += 1;
    }
    if t.total_rounds == 0 {
        return Err(SwissError::Invalid(
            "the total number of rounds (XXR) is required".to_string(),
        ));
    }
    if pr + 1 > t.total_rounds as usize {
        return Err(SwissError::Invalid(
            "all rounds of the tournament have been played".to_string(),
        ));
    }
    let pts = &t.points;
    let record = |e: usize, round: usize| -> RoundRecord {
        t.entrants[e]
            .rounds
            .get(round)
            .copied()
            .unwrap_or_else(RoundRecord::absent)
    };
    let score_before =
        |e: usize, rounds: usize| -> u32 { (0..rounds).map(|r| pts.points(&record(e, r))).sum() };
    let n_all = t.entrants.len();
    let mut rank = vec![usize::MAX; n_all];
    let mut next_rank = 0;
    let mut valid = vec![false; n_all];
    for (i, e) in t.entrants.iter().enumerate() {
        valid[i] = e.rounds.len() <= pr || e.rounds.iter().any(|r| r.participated);
        if valid[i] {
            rank[i] = next_rank;
            next_rank += 1;
        }
    }
    let mut players = Vec::new();
    for (i, e) in t.entrants.iter().enumerate() {
        if !valid[i] || e.rounds.len() > pr {
            continue;
        }
        let mut white = 0u32;
        let mut black = 0u32;
        let mut consecutive = 0u32;
        let mut last: Option<Colour> = None;
        let mut played_games = 0;
        let mut bye_eligible = true;
        for round in 0..pr {
            let r = record(i, round);
            if r.played {
                played_games += 1;
                let c = r.colour.unwrap_or(Colour::White);
                if c == Colour::White {
                    white += 1;
                } else {
                    black += 1;
                }
                if consecutive == 0 || Some(c) != last {
                    consecutive = 1;
                } else {
                    consecutive += 1;
                }
                last = Some(c);
            } else if pts.points(&r) >= pts.win || r.is_pairing_bye() {
                bye_eligible = false;
            }
        }
        let lower = if white > black {
            Colour::Black
        } else {
            Colour::White
        };
        let imbalance = white.abs_diff(black);
        let preference = if imbalance > 1 {
            Some(lower)
        } else if consecutive > 1 {
            last.map(Colour::invert)
        } else if imbalance > 0 {
            Some(lower)
        } else if consecutive > 0 {
            last.map(Colour::invert)
        } else {
            None
        };
        let repeated = if consecutive > 1 { last } else { None };
        let absolute = imbalance > 1 || repeated.is_some();
        let score = score_before(i, pr);
        let mut floats = [Float::None; 2];
        for (back, slot) in floats.iter_mut().enumerate() {
            let k = back + 1;
            if pr < k {
                continue;
            }
            let r = record(i, pr - k);
            *slot = if !r.played {
                if pts.points(&r) > pts.loss {
                    Float::Down
                } else {
                    Float::None
                }
            } else {
                let mine = score_before(i, pr - k);
                let opp = r.opponent.map(|o| o as usize - 1).unwrap_or(i);
                let theirs = score_before(opp, pr - k);
                match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => Float::Down,
                    std::cmp::Ordering::Less => Float::Up,
                    std::cmp::Ordering::Equal => Float::None,
                }
            };
        }
        players.push(Info {
            id: i,
            rank: rank[i],
            score,
            imbalance,
            preference,
            repeated,
            strong: !absolute && imbalance > 0,
            played_games,
            bye_eligible,
            floats,
        });
    }
    players.sort_by(|a, b| b.score.cmp(&a.score).then(a.rank.cmp(&b.rank)));
    let n = players.len();
    // Forbidden pairs: played games and XXP groups.
    let mut forbidden = vec![false; n_all * n_all];
    for group in &t.forbidden {
        for &a in group {
            for &b in group {
                forbidden[(a as usize - 1) * n_all + (b as usize - 1)] = true;
            }
        }
    }
    for (i, e) in t.entrants.iter().enumerate() {
        if !valid[i] {
            continue;
        }
        for r in &e.rounds {
            if let (true, Some(o)) = (r.played, r.opponent) {
                forbidden[i * n_all + (o as usize - 1)] = true;
                forbidden[(o as usize - 1) * n_all + i] = true;
            }
        }
    }
    let top_threshold = (pr as u32 * pts.win.max(pts.draw)) >> 1;
    let last_rounds = pr + 1 >= t.total_rounds as usize;
    let mut compatible = vec![false; n * n];
    for a in 0..n {
        for b in 0..n {
            if a == b {
                continue;
            }
            let (p, q) = (&players[a], &players[b]);
            compatible[a * n + b] = !forbidden[p.id * n_all + q.id]
                && (!p.absolute_preference()
                    || !q.absolute_preference()
                    || p.preference != q.preference
                    || (last_rounds && (p.score > top_threshold || q.score > top_threshold)));
        }
    }
    // Score-group bit allocation, from the lowest group upwards.
    let mut score_shift = HashMap::new();
    let mut groups_shift = 0;
    let mut max_group = 0;
    let mut i = n;
    while i > 0 {
        let score = players[i - 1].score;
        let mut j = i;
        while j > 0 && players[j - 1].score == score {
            j -= 1;
        }
        let size = i - j;
        score_shift.insert(score, groups_shift);
        groups_shift += bits_to_represent(size);
        max_group = max_group.max(size);
        i = j;
    }
    Ok(Context {
        t,
        played_rounds: pr,
        players,
        compatible,
        score_shift,
        groups_shift,
        group_bits: bits_to_represent(max_group),
    })
}

/// Pair the next round of `t`.
pub fn pair(t: &Tournament) -> Result<Pairing, SwissError> {
    if t.initial_colour.is_none() {
        return Err(SwissError::Invalid(
            "the initial colour (XXC) is required".to_string(),
        ));
    }
    t.validate()?;
    let cx = build_context(t)?;
    if cx.players.is_empty() {
        return Ok(Pairing {
            pairs: Vec::new(),
            bye: None,
        });
    }
    let bits = cx.total_shift() + 16;
    match bits.div_ceil(64) {
        0..=2 => pair_with::<2>(&cx),
        3 => pair_with::<3>(&cx),
        4 => pair_with::<4>(&cx),
        5 => pair_with::<5>(&cx),
        6 => pair_with::<6>(&cx),
        7 => pair_with::<7>(&cx),
        8 => pair_with::<8>(&cx),
        9 => pair_with::<9>(&cx),
        10 => pair_with::<10>(&cx),
        11 => pair_with::<11>(&cx),
        12 => pair_with::<12>(&cx),
        13..=14 => pair_with::<14>(&cx),
        15..=16 => pair_with::<16>(&cx),
        17..=20 => pair_with::<20>(&cx),
        21..=24 => pair_with::<24>(&cx),
        25..=28 => pair_with::<28>(&cx),
        29..=32 => pair_with::<32>(&cx),
        _ => Err(SwissError::TooLarge),
    }
}

fn pair_with<const N: usize>(cx: &Context) -> Result<Pairing, SwissError> {
    let mates = dutch_matching::<Wide<N>>(cx)?;
    let mut pairs = Vec::new();
    let mut bye = None;
    for (i, &m) in mates.iter().enumerate() {
        if m == i {
            bye = Some(cx.players[i].id as u32 + 1);
        } else if cx.players[i].id < cx.players[m].id {
            let colour = choose_colour(cx, i, m);
            let (a, b) = (cx.players[i].id as u32 + 1, cx.players[m].id as u32 + 1);
            pairs.push(if colour == Colour::White {
                (a, b)
            } else {
                (b, a)
            });
        }
    }
    pairs.sort_unstable();
    Ok(Pairing { pairs, bye })
}

fn is_complete(cx: &Context, mates: &[usize]) -> bool {
    let mut unmatched = 0;
    for (i, &m) in mates.iter().enumerate() {
        if m == i {
            if unmatched > 0 || !cx.players[i].bye_eligible {
                return false;
            }
            unmatched += 1;
        }
    }
    true
}

/// Fix a pair: its edge gets the maximum weight, all other edges of both
/// entrants are removed.
fn finalize<W: Weight>(m: &mut Matcher<W>, a: usize, b: usize, max: W) {
    m.fix_pair(a, b, max);
}

/// Run the bracket-by-bracket optimisation; returns the mate of each sorted
/// index (itself for the bye).
fn dutch_matching<W: Weight>(cx: &Context) -> Result<Vec<usize>, SwissError> {
    let ps = &cx.players;
    let n = ps.len();
    let s = cx.group_bits;
    let g = cx.groups_shift;
    let max_weight = W::from_u64(1).shl(cx.total_shift() + 2).sub(W::from_u64(1));
    let mut mx = Matcher::<W>::new(n);
    let no_bye = ByeData {
        bye_score: 0,
        single_downfloater_is_bye: false,
        unplayed_ranks: HashMap::new(),
    };
    let top_score = ps[0].score;
    let odd = n % 2 == 1;
    for i in 0..n {
        for j in 0..i {
            let w = if odd {
                if cx.compatible(i, j) {
                    let top = 1 + u64::from(!ps[i].bye_eligible) + u64::from(!ps[j].bye_eligible);
                    W::from_u64(top)
                        .shl(g)
                        .add(W::from_u64(u64::from(
                            cx.shift_of(ps[i].score) + cx.shift_of(ps[j].score),
                        )))
                        .shl(s)
                        .or_u64(u64::from(ps[i].score >= top_score))
                } else {
                    W::zero()
                }
            } else {
                edge_weight::<W>(cx, j, i, false, false, &no_bye)
            };
            mx.set(i, j, w);
        }
    }
    let mut bye = ByeData {
        bye_score: 0,
        single_downfloater_is_bye: false,
        unplayed_ranks: HashMap::new(),
    };
    {
        let mates = mx.compute();
        if !is_complete(cx, &mates) {
            return Err(SwissError::NoValidPairing);
        }
        if odd {
            if let Some(i) = (0..n).find(|&i| mates[i] == i) {
                bye.bye_score = ps[i].score;
            }
            if bye.bye_score >= top_score {
                bye.single_downfloater_is_bye = true;
                for i in 0..n {
                    if ps[i].score < top_score {
                        break;
                    }
                    if ps[mates[i]].score < top_score {
                        bye.single_downfloater_is_bye = false;
                        break;
                    }
                }
            }
            let mut counts: Vec<u32> = ps
                .iter()
                .filter(|p| p.score == bye.bye_score)
                .map(|p| p.played_games)
                .collect();
            counts.sort_unstable_by(|a, b| b.cmp(a));
            for (rank, c) in counts.into_iter().enumerate() {
                bye.unplayed_ranks.insert(c, rank as u64);
            }
            for i in 0..n {
                for j in 0..i {
                    let w = edge_weight::<W>(cx, j, i, false, false, &bye);
                    mx.set(i, j, w);
                }
            }
        }
    }

    let mut result = vec![usize::MAX; n];
    // Players of the current bracket followed by the next score group, as
    // sorted indices (= matcher vertices).
    let mut members: Vec<usize> = (0..n).take_while(|&i| ps[i].score >= top_score).collect();
    let mut next_group = members.len();
    let mut matched = vec![false; n];
    let mut moved_down = 0usize;
    let mut group_begin_vertex = 0usize;
    let mut stable;

    while members.len() > 1 || next_group < n {
        let bracket_end = members.len();
        let next_begin_vertex = group_begin_vertex + (bracket_end - moved_down);
        let group_start = next_group;
        if next_group < n {
            let score = ps[next_group].score;
            while next_group < n && ps[next_group].score >= score {
                members.push(next_group);
                next_group += 1;
            }
        }
        let size = members.len();
        // base[larger][smaller] for larger >= moved_down.
        let mut base: Vec<Vec<W>> = vec![Vec::new(); size];
        for larger in moved_down..size {
            let row: Vec<W> = (0..larger)
                .map(|smaller| {
                    edge_weight::<W>(
                        cx,
                        members[smaller],
                        members[larger],
                        larger < bracket_end,
                        larger >= bracket_end,
                        &bye,
                    )
                })
                .collect();
            for (smaller, &w) in row.iter().enumerate() {
                mx.set(members[larger], members[smaller], w);
            }
            base[larger] = row;
        }
        let in_group = |v: usize| v >= group_begin_vertex && v < next_begin_vertex;
        let ewc =
            |base: &Vec<Vec<W>>, smaller: usize, larger: usize, pos: usize, pairs: usize| -> W {
                let r = base[larger][smaller];
                if r.is_zero() {
                    return r;
                }
                let flag = W::from_u64(u64::from(pos < pairs)).shl(2 * s + 1);
                r.add(flag).sub(W::from_u64(2 * pos as u64))
            };

        stable = mx.compute();

        // Choose the moved-down players paired in this bracket.
        let mut md_score = 0u32;
        let mut remaining = 0usize;
        let mut remaining_matched = 0usize;
        for pi in 0..moved_down {
            let pv = members[pi];
            if pi == 0 || ps[pv].score < md_score {
                md_score = ps[pv].score;
                remaining = 0;
                remaining_matched = 0;
                let mut k = pi;
                while k < size && ps[members[k]].score >= md_score {
                    remaining += 1;
                    if in_group(stable[members[k]]) {
                        remaining_matched += 1;
                    }
                    k += 1;
                }
            }
            if remaining_matched == 0 {
                continue;
            }
            if remaining <= remaining_matched {
                matched[pv] = true;
                continue;
            }
            remaining -= 1;
            if !in_group(stable[pv]) {
                for oi in moved_down..bracket_end {
                    let w = base[oi][pi];
                    if !w.is_zero() {
                        mx.set(pv, members[oi], w.or_u64(1));
                    }
                }
                stable = mx.compute();
            }
            if in_group(stable[pv]) {
                matched[pv] = true;
                remaining_matched -= 1;
                for oi in moved_down..bracket_end {
                    let w = base[oi][pi];
                    if !w.is_zero() {
                        let w = w
                            .or_u64((bracket_end - moved_down) as u64)
                            .add(W::from_u64(1));
                        mx.set(pv, members[oi], w);
                    }
                }
            }
        }

        // Choose the opponents of the moved-down players.
        for pi in 0..moved_down {
            let pv = members[pi];
            if !matched[pv] {
                continue;
            }
            let mut addend = size as u64;
            for oi in (moved_down..bracket_end).rev() {
                let ov = members[oi];
                if matched[ov] {
                    continue;
                }
                let w = base[oi][pi];
                if !w.is_zero() {
                    mx.set(pv, ov, w.add(W::from_u64(addend)));
                    addend += 1;
                }
            }
            stable = mx.compute();
            let mv = stable[pv];
            matched[mv] = true;
            finalize(&mut mx, pv, mv, max_weight);
        }

        // The remainder.
        let mut remainder: Vec<usize> = Vec::new();
        let mut remainder_pairs = 0usize;
        for pi in moved_down..bracket_end {
            let pv = members[pi];
            if stable[pv] < group_begin_vertex {
                continue;
            }
            remainder.push(pi);
            if stable[pv] < pv {
                remainder_pairs += 1;
            }
        }
        for (oi_pos, &oi) in remainder.iter().enumerate() {
            for (pi_pos, &pi) in remainder.iter().enumerate().take(oi_pos) {
                mx.set(
                    members[pi],
                    members[oi],
                    ewc(&base, pi, oi, pi_pos, remainder_pairs),
                );
            }
        }
        stable = mx.compute();
        let forward =
            |stable: &Vec<usize>, v: usize| stable[v] > v && stable[v] < next_begin_vertex;
        let exchange_count = remainder
            .iter()
            .take(remainder_pairs)
            .filter(|&&pi| !forward(&stable, members[pi]))
            .count();

        // Lower players of the higher group to exchange.
        let mut left = exchange_count;
        let mut pos = remainder_pairs;
        while pos > 0 && left > 0 {
            pos -= 1;
            let pi = remainder[pos];
            let pv = members[pi];
            if forward(&stable, pv) {
                for &oi in &remainder[pos + 1..] {
                    let w = ewc(&base, pi, oi, pos, remainder_pairs);
                    if !w.is_zero() {
                        mx.set(pv, members[oi], w.sub(W::from_u64(1)));
                    }
                }
                stable = mx.compute();
            }
            let exchange = !forward(&stable, pv);
            if exchange {
                left -= 1;
            }
            for &oi in &remainder[pos + 1..] {
                if exchange {
                    base[oi][pi] = W::zero();
                }
                mx.set(pv, members[oi], ewc(&base, pi, oi, pos, remainder_pairs));
            }
        }

        // Higher players of the lower group to exchange.
        let mut left = exchange_count;
        let mut pos = remainder_pairs;
        while pos < remainder.len() && left > 1 {
            let pi = remainder[pos];
            let pv = members[pi];
            let already = forward(&stable, pv);
            if !already {
                for &oi in &remainder[pos + 1..] {
                    let w = ewc(&base, pi, oi, pos, remainder_pairs);
                    if !w.is_zero() {
                        mx.set(pv, members[oi], w.add(W::from_u64(1)));
                    }
                }
                stable = mx.compute();
            }
            if forward(&stable, pv) {
                left -= 1;
                for &oi in &remainder[..pos] {
                    base[pi][oi] = W::zero();
                    mx.set(pv, members[oi], W::zero());
                }
                for oi in bracket_end..size {
                    base[oi][pi] = W::zero();
                    mx.set(pv, members[oi], W::zero());
                }
            }
            if !already {
                for &oi in &remainder[pos + 1..] {
                    mx.set(pv, members[oi], ewc(&base, pi, oi, pos, remainder_pairs));
                }
            }
            pos += 1;
        }

        // Fix the exchanged players and restore the basic weights.
        for (a_pos, &pi) in remainder.iter().enumerate() {
            let pv = members[pi];
            for &oi in &remainder[a_pos + 1..] {
                let ov = members[oi];
                if !forward(&stable, pv) || forward(&stable, ov) {
                    base[oi][pi] = W::zero();
                }
                mx.set(pv, ov, base[oi][pi]);
            }
        }

        // Choose the opponents of the first-group players.
        for &pi in &remainder {
            let pv = members[pi];
            if !forward(&stable, pv) {
                continue;
            }
            let mut addend = 0u64;
            for &oi in remainder.iter().rev() {
                let ov = members[oi];
                if oi <= pi || matched[ov] {
                    continue;
                }
                let w = base[oi][pi];
                if !w.is_zero() {
                    mx.set(pv, ov, w.add(W::from_u64(addend)));
                }
                addend += 1;
            }
            stable = mx.compute();
            let mv = stable[pv];
            matched[pv] = true;
            matched[mv] = true;
            finalize(&mut mx, pv, mv, max_weight);
        }

        // Prepare the next bracket.
        let mut new_members = Vec::new();
        moved_down = 0;
        let group_score = if group_start < n {
            ps[group_start].score
        } else {
            0
        };
        bye.single_downfloater_is_bye = odd && group_start < n && bye.bye_score >= group_score;
        for (pi, &pv) in members.iter().enumerate() {
            if pi < bracket_end && matched[pv] {
                result[pv] = stable[pv];
                result[stable[pv]] = pv;
            } else {
                new_members.push(pv);
                if pi < bracket_end {
                    moved_down += 1;
                }
                if bye.single_downfloater_is_bye && ps[stable[pv]].score < group_score {
                    bye.single_downfloater_is_bye = false;
                }
            }
        }
        members = new_members;
        group_begin_vertex = next_begin_vertex;
    }
    for (i, slot) in result.iter_mut().enumerate() {
        if *slot == usize::MAX {
            *slot = i;
        }
    }
    let unmatched = result.iter().enumerate().filter(|&(i, &m)| i == m).count();
    if unmatched > 1 {
        return Err(SwissError::NoValidPairing);
    }
    Ok(result)
}

/// Colour for sorted index `a` when paired with sorted index `b`.
fn choose_colour(cx: &Context, a: usize, b: usize) -> Colour {
    let p = &cx.players[a];
    let o = &cx.players[b];
    if let Some(c) = neutral_colour(cx, p, o) {
        return c;
    }
    let initial = cx.t.initial_colour.unwrap_or(Colour::White);
    // `p` ranks below `o`?
    let p_lower = (p.score, o.rank) < (o.score, p.rank);
    match p.preference {
        None => {
            if p_lower {
                if o.rank % 2 == 1 {
                    initial
                } else {
                    initial.invert()
                }
            } else if p.rank % 2 == 1 {
                initial.invert()
            } else {
                initial
            }
        }
        Some(pref) => {
            if p_lower {
                o.preference.map(Colour::invert).unwrap_or(initial)
            } else {
                pref
            }
        }
    }
}

fn neutral_colour(cx: &Context, p: &Info, o: &Info) -> Option<Colour> {
    if prefs_compatible(p.preference, o.preference) {
        if p.preference.is_some() {
            return p.preference;
        }
        return o.preference.map(Colour::invert);
    }
    if p.absolute_preference() && (p.imbalance > o.imbalance || !o.absolute_preference()) {
        return p.preference;
    }
    if o.absolute_preference() && (o.imbalance > p.imbalance || !p.absolute_preference()) {
        return o.preference.map(Colour::invert);
    }
    if p.strong && !o.strong {
        return p.preference;
    }
    if o.strong && !p.strong {
        return o.preference.map(Colour::invert);
    }
    // Most recent round in which their colours differed.
    let history = |e: usize| -> Vec<Colour> {
        cx.t.entrants[e]
            .rounds
            .iter()
            .take(cx.played_rounds)
            .filter(|r| r.played)
            .filter_map(|r| r.colour)
            .rev()
            .collect()
    };
    let hp = history(p.id);
    let ho = history(o.id);
    for (cp, co) in hp.iter().zip(ho.iter()) {
        if cp != co {
            return Some(*co);
        }
    }
    None
}
