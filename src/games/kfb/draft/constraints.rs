//! Constraint checking: whether a partial draft can still be completed under the draft's
//! rules (seatings, colours, board orders, team firsts, mirrors, armies), which choices stay
//! valid, and why a choice is refused. A search over the two seatings, kept apart from the
//! draft's turn order because it knows nothing of whose turn it is.

use super::*;

/// The two seatings: for each board (board 1, 2, 3), the colours of the team 0 and team 1
/// players seated there.
pub(super) const SEATINGS: [[(Colour, Colour); 3]; 2] = [
    // Seating A: t0.red–t1.lightgreen, t0.blue–t1.red, t0.lightgreen–t1.blue.
    [
        (Colour::Red, Colour::LightGreen),
        (Colour::Blue, Colour::Red),
        (Colour::LightGreen, Colour::Blue),
    ],
    // Seating B: t0.lightgreen–t1.red, t0.red–t1.blue, t0.blue–t1.lightgreen.
    [
        (Colour::LightGreen, Colour::Red),
        (Colour::Red, Colour::Blue),
        (Colour::Blue, Colour::LightGreen),
    ],
];

/// The six ways to give a team's three players (in index order) the three colours.
pub(super) const COLOUR_PERMS: [[Colour; 3]; 6] = {
    use Colour::{Blue as B, LightGreen as G, Red as R};
    [
        [R, G, B],
        [R, B, G],
        [G, R, B],
        [G, B, R],
        [B, R, G],
        [B, G, R],
    ]
};

/// Constraints beyond "each team has one player of each colour" (which the search always
/// enforces), in the order used to explain a refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rule {
    BoardOrders,
    TeamFirst,
    NoMirror,
    TeamTwoArmies,
    GameThreeArmies,
}

impl Rule {
    pub(super) const ALL: [Rule; 5] = [
        Rule::BoardOrders,
        Rule::TeamFirst,
        Rule::NoMirror,
        Rule::TeamTwoArmies,
        Rule::GameThreeArmies,
    ];

    pub(super) fn bit(self) -> u8 {
        match self {
            Rule::BoardOrders => 1,
            Rule::TeamFirst => 2,
            Rule::NoMirror => 4,
            Rule::TeamTwoArmies => 8,
            Rule::GameThreeArmies => 16,
        }
    }
}

pub(super) const ALL_RULES: u8 = 31;

/// Board pairs: `(team 0 player, team 1 player)` for boards 1, 2, 3.
pub(super) type Boards = [(usize, usize); 3];

pub(super) fn boards_for(seating: usize, perm0: &[Colour; 3], perm1: &[Colour; 3]) -> Boards {
    let mut boards = [(0, TEAM_SIZE); 3];
    for (board, &(c0, c1)) in boards.iter_mut().zip(&SEATINGS[seating]) {
        let i = perm0.iter().position(|&c| c == c0).unwrap_or(0);
        let j = perm1.iter().position(|&c| c == c1).unwrap_or(0);
        *board = (i, TEAM_SIZE + j);
    }
    boards
}

pub(super) fn colours_fit(
    picks: &[Option<Choice>; PLAYERS],
    team: usize,
    perm: &[Colour; 3],
) -> bool {
    team_players(team)
        .into_iter()
        .zip(perm)
        .all(|(p, &c)| picks[p].is_none_or(|pick| pick.colour == c))
}

/// Whether some choices for the unpicked players and some seating satisfy the colour rule and
/// every rule in `rules` (a set of [`Rule`] bits).
pub(super) fn completable(picks: &[Option<Choice>; PLAYERS], rules: u8) -> bool {
    // Orders and armies only depend on who faces whom, so cache by that pairing
    // (team 0 player i faces team 1 player opp[i]; key = opp in base 3).
    let mut memo = [None::<bool>; 27];
    for seating in 0..SEATINGS.len() {
        for perm0 in COLOUR_PERMS.iter().filter(|p| colours_fit(picks, 0, p)) {
            for perm1 in COLOUR_PERMS.iter().filter(|p| colours_fit(picks, 1, p)) {
                let boards = boards_for(seating, perm0, perm1);
                let mut opp = [0usize; 3];
                for &(a, b) in &boards {
                    opp[a] = b - TEAM_SIZE;
                }
                let key = opp[0] * 9 + opp[1] * 3 + opp[2];
                let ok = *memo[key].get_or_insert_with(|| {
                    orders_possible(picks, &boards, rules) && armies_possible(picks, &boards, rules)
                });
                if ok {
                    return true;
                }
            }
        }
    }
    false
}

pub(super) fn orders_possible(
    picks: &[Option<Choice>; PLAYERS],
    boards: &Boards,
    rules: u8,
) -> bool {
    (0u8..64).any(|mask| {
        let first = |p: usize| mask >> p & 1 == 1;
        let fits =
            (0..PLAYERS).all(|p| picks[p].is_none_or(|c| (c.order == Order::First) == first(p)));
        fits && (rules & Rule::BoardOrders.bit() == 0
            || boards.iter().all(|&(a, b)| first(a) != first(b)))
            && (rules & Rule::TeamFirst.bit() == 0
                || (0..2).all(|t| team_players(t).into_iter().any(first)))
    })
}

pub(super) fn armies_possible(
    picks: &[Option<Choice>; PLAYERS],
    boards: &Boards,
    rules: u8,
) -> bool {
    let mut seq = [0usize; PLAYERS];
    for (i, &(a, b)) in boards.iter().enumerate() {
        seq[2 * i] = a;
        seq[2 * i + 1] = b;
    }
    let mut armies = [Army::Fide; PLAYERS];
    assign_armies(picks, &seq, rules, 0, &mut armies)
}

/// Backtracking over the players in board order (`seq`), so that a mirror is pruned as soon
/// as the second player of a board gets an army.
pub(super) fn assign_armies(
    picks: &[Option<Choice>; PLAYERS],
    seq: &[usize; PLAYERS],
    rules: u8,
    depth: usize,
    armies: &mut [Army; PLAYERS],
) -> bool {
    if depth == PLAYERS {
        return armies_satisfy(armies, rules);
    }
    let p = seq[depth];
    let fixed = picks[p].map(|c| c.army);
    for army in Army::ALL {
        if fixed.is_some_and(|f| f != army) {
            continue;
        }
        if depth % 2 == 1 && rules & Rule::NoMirror.bit() != 0 && armies[seq[depth - 1]] == army {
            continue;
        }
        armies[p] = army;
        if assign_armies(picks, seq, rules, depth + 1, armies) {
            return true;
        }
    }
    false
}

pub(super) fn army_set(armies: impl IntoIterator<Item = Army>) -> u8 {
    armies.into_iter().fold(0, |acc, a| acc | a.bit())
}

pub(super) fn armies_satisfy(armies: &[Army; PLAYERS], rules: u8) -> bool {
    (rules & Rule::TeamTwoArmies.bit() == 0
        || (army_set(armies[..TEAM_SIZE].iter().copied()).count_ones() >= 2
            && army_set(armies[TEAM_SIZE..].iter().copied()).count_ones() >= 2))
        && (rules & Rule::GameThreeArmies.bit() == 0
            || army_set(armies.iter().copied()).count_ones() >= 3)
}

/// Checks a complete set of choices against one seating (index into [`SEATINGS`]), directly
/// from the rules, and returns the seats if everything holds.
pub(super) fn valid_seating(choices: &[Choice; PLAYERS], seating: usize) -> Option<Seating> {
    // Each team: one player of each colour.
    for team in 0..2 {
        let seen = team_players(team)
            .into_iter()
            .fold(0u8, |acc, p| acc | 1 << choices[p].colour.index());
        if seen != 0b111 {
            return None;
        }
    }
    let find = |team: usize, colour: Colour| {
        team_players(team)
            .into_iter()
            .find(|&p| choices[p].colour == colour)
    };
    let mut boards = [BoardSeat {
        first: 0,
        second: 0,
    }; 3];
    for (seat, &(c0, c1)) in boards.iter_mut().zip(&SEATINGS[seating]) {
        let (a, b) = (find(0, c0)?, find(1, c1)?);
        let (ca, cb) = (choices[a], choices[b]);
        if ca.army == cb.army || ca.order == cb.order {
            return None;
        }
        *seat = if ca.order == Order::First {
            BoardSeat {
                first: a,
                second: b,
            }
        } else {
            BoardSeat {
                first: b,
                second: a,
            }
        };
    }
    for team in 0..2 {
        let players = team_players(team);
        if !players.iter().any(|&p| choices[p].order == Order::First) {
            return None;
        }
        if army_set(players.iter().map(|&p| choices[p].army)).count_ones() < 2 {
            return None;
        }
    }
    if army_set(choices.iter().map(|c| c.army)).count_ones() < 3 {
        return None;
    }
    Some(Seating { boards })
}

/// Why `picks` (which include `player`'s new choice) can no longer be completed, in plain
/// words: the first rule, in a fixed order, that cannot be met together with the earlier ones.
pub(super) fn explain(picks: &[Option<Choice>; PLAYERS], player: usize) -> String {
    let Some(choice) = picks.get(player).copied().flatten() else {
        return "that choice cannot be accepted".to_string();
    };
    let team = team_of(player);
    let players = team_players(team);
    if let Some(mate) = players
        .into_iter()
        .find(|&q| q != player && picks[q].is_some_and(|c| c.colour == choice.colour))
    {
        return format!(
            "team {team} already has a {} player (player {mate}); each team needs one red, one \
             lightgreen and one blue player",
            choice.colour
        );
    }
    let team_picks: Vec<Choice> = players.iter().filter_map(|&p| picks[p]).collect();
    let all_picks: Vec<Choice> = picks.iter().flatten().copied().collect();
    let mut rules = 0;
    for rule in Rule::ALL {
        rules |= rule.bit();
        if completable(picks, rules) {
            continue;
        }
        return match rule {
            Rule::BoardOrders => {
                let firsts = all_picks.iter().filter(|c| c.order == Order::First).count();
                let seconds = all_picks.len() - firsts;
                if firsts > 3 || seconds > 3 {
                    let (n, which) = if firsts > 3 {
                        (firsts, "first")
                    } else {
                        (seconds, "second")
                    };
                    format!(
                        "{n} players would go {which}, but each of the three boards has exactly \
                         one player going first and one going second"
                    )
                } else {
                    "with this choice, either seating would put two players going first (or two \
                     going second) on the same board; each board needs one of each"
                        .to_string()
                }
            }
            Rule::TeamFirst => {
                if team_picks.len() == TEAM_SIZE
                    && team_picks.iter().all(|c| c.order == Order::Second)
                {
                    format!(
                        "nobody in team {team} would go first; each team needs at least one \
                         player going first"
                    )
                } else if team_picks.len() == TEAM_SIZE
                    && team_picks.iter().all(|c| c.order == Order::First)
                {
                    format!(
                        "everyone in team {team} would go first, so nobody in team {} could \
                         (each board has one player going first and one going second); each \
                         team needs at least one player going first",
                        1 - team
                    )
                } else {
                    "with this choice, no way of finishing the draft leaves each team with at \
                     least one player going first"
                        .to_string()
                }
            }
            Rule::NoMirror => "with this choice, every seating still possible would put the \
                               same army on both sides of a board; no army may face itself"
                .to_string(),
            Rule::TeamTwoArmies => {
                if team_picks.len() == TEAM_SIZE && team_picks.iter().all(|c| c.army == choice.army)
                {
                    format!(
                        "all of team {team} would play {}; each team needs at least two \
                         different armies",
                        choice.army.name()
                    )
                } else {
                    "with this choice, no way of finishing the draft gives each team at least \
                     two different armies"
                        .to_string()
                }
            }
            Rule::GameThreeArmies => {
                if all_picks.len() == PLAYERS {
                    let n = army_set(all_picks.iter().map(|c| c.army)).count_ones();
                    format!(
                        "the game would have only {n} different armies; it needs at least three"
                    )
                } else {
                    "with this choice, no way of finishing the draft brings the game to at \
                     least three different armies"
                        .to_string()
                }
            }
        };
    }
    "with this choice the draft could no longer be completed".to_string()
}
