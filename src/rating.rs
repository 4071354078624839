//! Ratings (issue 57): a pure computation from a server's finished games of one kind, in the
//! order they finished, to each player's rating. The log is the truth: nothing is stored, so a
//! revert or a corrected result changes every rating after it the next time it is computed.
//!
//! The formulas are the `skillratings` crate's, never our own:
//! - Chex: Glicko-2 ([`glicko2`]), one game at a time, both players from their ratings before it.
//! - KFB: each player is rated from the team result with Glicko-2's rating period
//!   ([`glicko2_rating_period`]) against every player of the other team, so every partner is
//!   credited (or debited) with the team's result.
//! - Ultimate, Party and Nomic: Weng-Lin on the placings ([`weng_lin_multi_team`], each player
//!   a team of one; ties share a place).
//!
//! A rating is provisional until [`PROVISIONAL_BELOW`] games are rated. A game in which one
//! user holds several seats is not rated (they would play themselves).

use std::collections::HashMap;

use skillratings::glicko2::{glicko2, glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};

use crate::time::Timestamp;

/// A rating with fewer rated games than this is provisional.
pub const PROVISIONAL_BELOW: u32 = 5;

/// The rating model of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Glicko-2, two players (Chex).
    Glicko2,
    /// Glicko-2 from team results, each player against every opponent (KFB).
    TeamGlicko2,
    /// Weng-Lin on placings among several players (Ultimate, Party, Nomic).
    WengLin,
}

impl Model {
    /// The model a game kind (its stored variant) is rated with.
    pub fn of(variant: &str) -> Model {
        match variant {
            "chex" => Model::Glicko2,
            "kfb" => Model::TeamGlicko2,
            _ => Model::WengLin,
        }
    }

    /// A new player's rating.
    fn initial(self) -> Rating {
        match self {
            Model::Glicko2 | Model::TeamGlicko2 => {
                let g = Glicko2Rating::new();
                Rating {
                    rating: g.rating,
                    deviation: g.deviation,
                    volatility: g.volatility,
                    games: 0,
                    last_change: 0.0,
                }
            }
            Model::WengLin => {
                let w = WengLinRating::new();
                Rating {
                    rating: w.rating,
                    deviation: w.uncertainty,
                    volatility: 0.0,
                    games: 0,
                    last_change: 0.0,
                }
            }
        }
    }

    /// A rating value as shown: Glicko-2 in whole points, Weng-Lin (about 25 ± 8) with one
    /// decimal.
    pub fn show(self, value: f64) -> String {
        match self {
            Model::WengLin => format!("{value:.1}"),
            _ => format!("{}", value.round() as i64),
        }
    }

    /// A change as shown, signed (`+162`, `-3.4`).
    pub fn show_change(self, change: f64) -> String {
        let s = self.show(change);
        if s.starts_with('-') {
            s
        } else {
            format!("+{s}")
        }
    }
}

/// One side of a finished game: its players (one, or a team) and its place (1 is first;
/// sides that tie share a place).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// The players of the side.
    pub players: Vec<String>,
    /// Its place, from 1.
    pub place: u32,
}

/// One side a player for each user, placed as `places` says (in the same order).
pub fn sides_alone(users: &[String], places: impl IntoIterator<Item = u32>) -> Vec<Side> {
    users
        .iter()
        .zip(places)
        .map(|(u, place)| Side {
            players: vec![u.clone()],
            place,
        })
        .collect()
}

/// A finished game's result, as the ratings read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The game's thread.
    pub thread: String,
    /// When it finished (its last action in effect).
    pub at: Timestamp,
    /// Its sides and their places.
    pub sides: Vec<Side>,
}

/// A player's rating in one game on one server.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (Glicko-2 points, or Weng-Lin's mu).
    pub rating: f64,
    /// Its deviation (Glicko-2's RD, or Weng-Lin's sigma).
    pub deviation: f64,
    /// Glicko-2's volatility (0 for Weng-Lin).
    pub volatility: f64,
    /// Rated games.
    pub games: u32,
    /// The change of the rating in the last rated game.
    pub last_change: f64,
}

impl Rating {
    /// Whether too few games are rated for the rating to be taken as settled.
    pub fn provisional(&self) -> bool {
        self.games < PROVISIONAL_BELOW
    }
}

/// A player's rating before and after one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The player.
    pub player: String,
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
}

/// Every player's rating in one game on one server, and each rated game's changes.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The model the game is rated with.
    pub model: Model,
    /// The players' ratings.
    pub players: HashMap<String, Rating>,
    /// The changes each rated game made, by thread.
    pub changes: HashMap<String, Vec<Change>>,
}

impl Table {
    /// A player's rating (a new player's when they have none).
    pub fn of(&self, player: &str) -> Rating {
        self.players
            .get(player)
            .copied()
            .unwrap_or_else(|| self.model.initial())
    }

    /// The players, best first (rating, then fewer deviation, then name), at most `n`.
    pub fn top(&self, n: usize) -> Vec<(&str, Rating)> {
        let mut v: Vec<(&str, Rating)> =
            self.players.iter().map(|(p, r)| (p.as_str(), *r)).collect();
        v.sort_by(|a, b| {
            b.1.rating
                .total_cmp(&a.1.rating)
                .then(a.1.deviation.total_cmp(&b.1.deviation))
                .then(a.0.cmp(b.0))
        });
        v.truncate(n);
        v
    }

    /// `<r> ± <rd> (<n> games)`, then `, provisional` while provisional (after the brackets,
    /// so the pinned `(<n> games)` reads the same either way).
    pub fn line(&self, r: &Rating) -> String {
        format!(
            "{} ± {} ({} games){}",
            self.model.show(r.rating),
            self.model.show(r.deviation),
            r.games,
            if r.provisional() { ", provisional" } else { "" }
        )
    }

    /// The ratings a game changed: `a 1500 → 1662 (+162), b 1500 → 1338 (-162)`; `None`
    /// when it was not rated.
    pub fn changes_text(&self, thread: &str) -> Option<String> {
        let changes = self.changes.get(thread)?;
        let m = self.model;
        let parts: Vec<String> = changes
            .iter()
            .map(|c| {
                format!(
                    "{} {} → {} ({})",
                    c.player,
                    m.show(c.before),
                    m.show(c.after),
                    m.show_change(c.after - c.before)
                )
            })
            .collect();
        Some(parts.join(", "))
    }
}

/// Whether the game can be rated: two sides or more, each with a player, no user twice.
fn ratable(result: &GameResult) -> bool {
    let mut seen: Vec<&str> = Vec::new();
    for p in result.sides.iter().flat_map(|s| &s.players) {
        if seen.contains(&p.as_str()) {
            return false;
        }
        seen.push(p);
    }
    result.sides.len() >= 2 && result.sides.iter().all(|s| !s.players.is_empty())
}

/// The outcome for a side placed `mine` against one placed `theirs`.
fn outcome(mine: u32, theirs: u32) -> Outcomes {
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Less => Outcomes::WIN,
        std::cmp::Ordering::Equal => Outcomes::DRAW,
        std::cmp::Ordering::Greater => Outcomes::LOSS,
    }
}

fn glicko(r: &Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

fn weng_lin(r: &Rating) -> WengLinRating {
    WengLinRating {
        rating: r.rating,
        uncertainty: r.deviation,
    }
}

/// The ratings of one game kind (`variant`) on one server from its finished games' results,
/// taken in the order they finished (then by thread, for games finished at the same second).
pub fn compute(variant: &str, results: &[GameResult]) -> Table {
    let model = Model::of(variant);
    let mut order: Vec<&GameResult> = results.iter().collect();
    order.sort_by(|a, b| a.at.cmp(&b.at).then_with(|| a.thread.cmp(&b.thread)));
    let mut table = Table {
        model,
        players: HashMap::new(),
        changes: HashMap::new(),
    };
    for result in order.into_iter().filter(|r| ratable(r)) {
        let before: Vec<Vec<Rating>> = result
            .sides
            .iter()
            .map(|s| s.players.iter().map(|p| table.of(p)).collect())
            .collect();
        let after = rate(model, result, &before);
        let mut changes = Vec::new();
        for (i, side) in result.sides.iter().enumerate() {
            for (j, player) in side.players.iter().enumerate() {
                let (old, mut new) = (before[i][j], after[i][j]);
                new.games = old.games + 1;
                new.last_change = new.rating - old.rating;
                table.players.insert(player.clone(), new);
                changes.push(Change {
                    player: player.clone(),
                    before: old.rating,
                    after: new.rating,
                });
            }
        }
        table.changes.insert(result.thread.clone(), changes);
    }
    table
}

/// The ratings after one game, side by side and player by player as `before`.
fn rate(model: Model, result: &GameResult, before: &[Vec<Rating>]) -> Vec<Vec<Rating>> {
    let sides = &result.sides;
    match model {
        Model::Glicko2 if sides.len() == 2 && before.iter().all(|s| s.len() == 1) => {
            let config = Glicko2Config::new();
            let (a, b) = glicko2(
                &glicko(&before[0][0]),
                &glicko(&before[1][0]),
                &outcome(sides[0].place, sides[1].place),
                &config,
            );
            vec![
                vec![from_glicko(&before[0][0], a)],
                vec![from_glicko(&before[1][0], b)],
            ]
        }
        Model::Glicko2 | Model::TeamGlicko2 => {
            let config = Glicko2Config::new();
            before
                .iter()
                .enumerate()
                .map(|(i, team)| {
                    team.iter()
                        .map(|me| {
                            // Against every player of every other side, with the side's result.
                            let games: Vec<(Glicko2Rating, Outcomes)> = before
                                .iter()
                                .enumerate()
                                .filter(|(j, _)| *j != i)
                                .flat_map(|(j, them)| {
                                    let o = outcome(sides[i].place, sides[j].place);
                                    them.iter().map(move |t| (glicko(t), o))
                                })
                                .collect();
                            from_glicko(me, glicko2_rating_period(&glicko(me), &games, &config))
                        })
                        .collect()
                })
                .collect()
        }
        Model::WengLin => {
            let teams: Vec<Vec<WengLinRating>> = before
                .iter()
                .map(|t| t.iter().map(weng_lin).collect())
                .collect();
            let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
                .iter()
                .zip(sides)
                .map(|(t, s)| (&t[..], MultiTeamOutcome::new(s.place as usize)))
                .collect();
            let new = weng_lin_multi_team(&ranked, &WengLinConfig::new());
            before
                .iter()
                .zip(new)
                .map(|(old, new)| {
                    old.iter()
                        .zip(new)
                        .map(|(o, n)| Rating {
                            rating: n.rating,
                            deviation: n.uncertainty,
                            ..*o
                        })
                        .collect()
                })
                .collect()
        }
    }
}

fn from_glicko(old: &Rating, g: Glicko2Rating) -> Rating {
    Rating {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
        ..*old
    }
}

/// The places of sides ranked by a score, higher first; equal scores share a place
/// (`[3.0, 9.5, 3.0]` → `[2, 1, 2]`).
pub fn places_by_score(scores: &[f64]) -> Vec<u32> {
    scores
        .iter()
        .map(|s| 1 + scores.iter().filter(|o| *o > s).count() as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two(thread: &str, at: Timestamp, a: &str, b: &str, pa: u32, pb: u32) -> GameResult {
        GameResult {
            thread: thread.into(),
            at,
            sides: vec![
                Side {
                    players: vec![a.into()],
                    place: pa,
                },
                Side {
                    players: vec![b.into()],
                    place: pb,
                },
            ],
        }
    }

    #[test]
    fn chex_first_game_matches_the_crates_documented_example() {
        // skillratings' glicko2 doc example: two new players, a win: 1662 ± 290 and 1338 ± 290.
        let t = compute("chex", &[two("g", 1, "a", "b", 1, 2)]);
        let (a, b) = (t.of("a"), t.of("b"));
        assert_eq!(a.rating.round(), 1662.0);
        assert_eq!(a.deviation.round(), 290.0);
        assert!((a.volatility - 0.059_999_675_372_338_14).abs() < 1e-12);
        assert_eq!(b.rating.round(), 1338.0);
        assert_eq!(t.line(&a), "1662 ± 290 (1 games), provisional");
        assert_eq!(
            t.changes_text("g").as_deref(),
            Some("a 1500 → 1662 (+162), b 1500 → 1338 (-162)")
        );
    }

    #[test]
    fn order_is_by_finish_time_not_input_order() {
        let games = vec![
            two("g2", 20, "a", "c", 2, 1),
            two("g1", 10, "a", "b", 1, 2),
            two("g3", 30, "b", "c", 1, 1),
        ];
        let mut reversed = games.clone();
        reversed.reverse();
        assert_eq!(compute("chex", &games), compute("chex", &reversed));
        // Replayed by hand with the crate, in time order.
        let cfg = Glicko2Config::new();
        let n = Glicko2Rating::new();
        let (a1, b1) = glicko2(&n, &n, &Outcomes::WIN, &cfg);
        let (a2, c2) = glicko2(&a1, &n, &Outcomes::LOSS, &cfg);
        let (b3, c3) = glicko2(&b1, &c2, &Outcomes::DRAW, &cfg);
        let t = compute("chex", &games);
        assert_eq!(glicko(&t.of("a")), a2);
        assert_eq!(glicko(&t.of("b")), b3);
        assert_eq!(glicko(&t.of("c")), c3);
        assert_eq!(t.of("b").games, 2);
    }

    #[test]
    fn kfb_credits_every_partner_with_the_team_result() {
        let r = GameResult {
            thread: "k".into(),
            at: 5,
            sides: vec![
                Side {
                    players: vec!["a".into(), "b".into(), "c".into()],
                    place: 1,
                },
                Side {
                    players: vec!["d".into(), "e".into(), "f".into()],
                    place: 2,
                },
            ],
        };
        let t = compute("kfb", &[r]);
        let n = Glicko2Rating::new();
        let cfg = Glicko2Config::new();
        let won = glicko2_rating_period(&n, &[(n, Outcomes::WIN); 3], &cfg);
        let lost = glicko2_rating_period(&n, &[(n, Outcomes::LOSS); 3], &cfg);
        for p in ["a", "b", "c"] {
            assert_eq!(glicko(&t.of(p)), won);
        }
        for p in ["d", "e", "f"] {
            assert_eq!(glicko(&t.of(p)), lost);
        }
        assert!(won.rating > 1500.0 && lost.rating < 1500.0);
    }

    #[test]
    fn placings_match_weng_lin_multi_team() {
        let r = GameResult {
            thread: "u".into(),
            at: 1,
            sides: ["a", "b", "c", "d"]
                .iter()
                .zip(places_by_score(&[1.0, 4.0, 1.0, 2.0]))
                .map(|(p, place)| Side {
                    players: vec![p.to_string()],
                    place,
                })
                .collect(),
        };
        assert_eq!(
            r.sides.iter().map(|s| s.place).collect::<Vec<_>>(),
            [3, 1, 3, 2]
        );
        let t = compute("ultimate", &[r]);
        let n = [WengLinRating::new()];
        let expected = weng_lin_multi_team(
            &[
                (&n[..], MultiTeamOutcome::new(3)),
                (&n[..], MultiTeamOutcome::new(1)),
                (&n[..], MultiTeamOutcome::new(3)),
                (&n[..], MultiTeamOutcome::new(2)),
            ],
            &WengLinConfig::new(),
        );
        for (p, e) in ["a", "b", "c", "d"].iter().zip(&expected) {
            assert_eq!(weng_lin(&t.of(p)), e[0]);
        }
        assert!(t.of("b").rating > t.of("d").rating && t.of("d").rating > t.of("a").rating);
        assert_eq!(t.of("a").rating, t.of("c").rating);
    }

    #[test]
    fn weng_lin_doc_example_values() {
        // skillratings' weng_lin_multi_team doc example, through our conversion.
        let r = |rating, uncertainty| WengLinRating {
            rating,
            uncertainty,
        };
        let one = [WengLinRating::new(), r(30.0, 1.2), r(21.0, 6.5)];
        let two = [WengLinRating::new(), r(41.0, 1.4), r(19.2, 4.3)];
        let three = [WengLinRating::new(), r(29.4, 1.6), r(17.2, 2.1)];
        let mk = |t: &[WengLinRating]| -> Vec<Rating> {
            t.iter()
                .map(|w| Rating {
                    rating: w.rating,
                    deviation: w.uncertainty,
                    volatility: 0.0,
                    games: 0,
                    last_change: 0.0,
                })
                .collect()
        };
        let result = GameResult {
            thread: "x".into(),
            at: 0,
            sides: vec![
                Side {
                    players: vec!["a".into(); 3],
                    place: 2,
                },
                Side {
                    players: vec!["b".into(); 3],
                    place: 1,
                },
                Side {
                    players: vec!["c".into(); 3],
                    place: 3,
                },
            ],
        };
        let new = rate(Model::WengLin, &result, &[mk(&one), mk(&two), mk(&three)]);
        let hundredths = |x: f64| (x * 100.0).round();
        assert_eq!(hundredths(new[0][0].rating), 2538.0);
        assert_eq!(hundredths(new[0][1].rating), 3001.0);
        assert_eq!(hundredths(new[1][1].rating), 4108.0);
        assert_eq!(hundredths(new[2][2].rating), 1699.0);
    }

    #[test]
    fn a_user_in_two_seats_is_not_rated_and_provisional_ends_at_five() {
        let t = compute("chex", &[two("g", 1, "a", "a", 1, 2)]);
        assert!(t.players.is_empty());
        let games: Vec<GameResult> = (0..5)
            .map(|i| two(&format!("g{i}"), i, "a", "b", 1, 2))
            .collect();
        let t = compute("chex", &games[..4]);
        assert!(t.of("a").provisional());
        let t = compute("chex", &games);
        assert!(!t.of("a").provisional());
        assert_eq!(t.line(&t.of("zed")), "1500 ± 350 (0 games), provisional");
    }
}
