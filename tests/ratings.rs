//! Ratings (issue 57) recomputed from a server's stored games match the `skillratings` crate
//! applied by hand to the results the test played: Chex games between six players in a
//! drawn order (one finished, reverted by a moderator and finished the other way), a KFB game
//! and Ultimate games. Checked through the service on the stored games and through `/rating`.
//! Runs on SQLite, and on PostgreSQL when `ARBITER_TEST_POSTGRES` names a server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::HashMap;

use arbiter::console::Console;
use arbiter::service::Service;
use arbiter::store::Store;
use skillratings::glicko2::{glicko2, glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::{MultiTeamOutcome, Outcomes};

/// Sends `text` as `user` and presses the Confirm button it asks with.
fn confirmed(c: &mut Console, user: &str, text: &str) -> Vec<String> {
    let out = c.line(&format!("{user} {text}"));
    let id = out
        .iter()
        .find_map(|l| l.strip_prefix("[button:ask-confirm-"))
        .and_then(|l| l.strip_suffix(']'))
        .unwrap_or_else(|| panic!("{user} {text}: no Confirm button in {out:?}"))
        .to_string();
    let out = c.line(&format!("!press ask-confirm-{id}"));
    assert!(out[0].starts_with("ok:"), "{user} {text}: {out:?}");
    out
}

fn ok(c: &mut Console, text: &str) -> Vec<String> {
    let out = c.line(text);
    assert!(out[0].starts_with("ok:"), "{text}: {out:?}");
    out
}

/// A tiny deterministic generator for the pairings and results.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

const PLAYERS: [&str; 6] = ["ann", "ben", "cat", "dan", "eve", "fay"];

#[test]
fn stored_games_give_the_crates_ratings() {
    let url = common::fresh_db("ratings");
    let mut c = Console::open(Some(&url), 7).expect("open the test database");
    c.line("!as organiser org");
    c.line("!as moderator mod");

    // Chex: (white, black, white won), in the order the games finished.
    let mut chex: Vec<(String, String, bool)> = Vec::new();
    let mut rng = Lcg(57);
    for g in 0..14 {
        let w = rng.below(6);
        let b = (w + 1 + rng.below(5)) % 6;
        let (white, black) = (PLAYERS[w], PLAYERS[b]);
        let white_won = rng.below(3) > 0;
        let thread = format!("c{g}");
        c.line(&format!("!thread {thread}"));
        ok(
            &mut c,
            &format!("org /chex new white:@{white} black:@{black} seed:{g}"),
        );
        let loser = if white_won { black } else { white };
        let out = confirmed(&mut c, loser, "/resign");
        assert!(
            out.iter().any(|l| l.starts_with("ratings: ")),
            "the end-of-game message tells the changes: {out:?}"
        );
        if g == 5 {
            // The result is corrected: a moderator reverts the resignation, an hour later
            // the other player resigns. The game now finishes later, with the other result.
            let preview = c.line("mod /revert to:1 reason:wrong player resigned");
            let id = preview
                .iter()
                .find_map(|l| l.strip_prefix("[button:revert-confirm-"))
                .and_then(|l| l.strip_suffix(']'))
                .expect("a revert button")
                .to_string();
            ok(&mut c, &format!("!press revert-confirm-{id}"));
            c.line("!clock +1h");
            let winner = if white_won { white } else { black };
            confirmed(&mut c, winner, "/resign");
            chex.push((white.into(), black.into(), !white_won));
        } else {
            chex.push((white.into(), black.into(), white_won));
        }
        c.line("!clock +1h");
    }

    // KFB: the draft, a few moves, team 1 resigns.
    c.line("!thread k1");
    ok(
        &mut c,
        "org /kfb new team1:@ann @ben @cat team2:@dan @eve @fay seed:1 move_limit:6m",
    );
    for line in [
        "fay /pick order:second color:red army:fide",
        "ann /pick order:first color:red army:fide",
        "eve /pick order:first color:blue army:rookies",
        "ben /pick order:second color:lightgreen army:nutty",
        "dan /pick order:second color:lightgreen army:clobberers",
        "cat /pick order:first color:blue army:forward",
        "ann /move e2-e4",
    ] {
        ok(&mut c, line);
    }
    confirmed(&mut c, "ben", "/resign");
    c.line("!clock +1h");

    // Ultimate: three concessions each; the last one standing wins.
    let ultimate: [[&str; 4]; 2] = [["ann", "ben", "cat", "dan"], ["eve", "ann", "fay", "ben"]];
    // Seats conceding in order (Silver, Red, Black, Green = 0..4); the one left wins.
    let concede: [[usize; 3]; 2] = [[2, 0, 3], [1, 3, 0]];
    for (i, (seats, order)) in ultimate.iter().zip(concede).enumerate() {
        c.line(&format!("!thread u{i}"));
        ok(
            &mut c,
            &format!(
                "org /ultimate new silver:@{} red:@{} black:@{} green:@{} seed:7",
                seats[0], seats[1], seats[2], seats[3]
            ),
        );
        for s in order {
            confirmed(&mut c, seats[s], "/concede");
        }
        c.line("!clock +1h");
    }

    // Independently, with the crate.
    let cfg = Glicko2Config::new();
    let mut want: HashMap<String, Glicko2Rating> = HashMap::new();
    let mut games: HashMap<String, u32> = HashMap::new();
    for (w, b, white_won) in &chex {
        let (rw, rb) = (
            want.get(w).copied().unwrap_or_default(),
            want.get(b).copied().unwrap_or_default(),
        );
        let outcome = if *white_won {
            Outcomes::WIN
        } else {
            Outcomes::LOSS
        };
        let (nw, nb) = glicko2(&rw, &rb, &outcome, &cfg);
        want.insert(w.clone(), nw);
        want.insert(b.clone(), nb);
        *games.entry(w.clone()).or_default() += 1;
        *games.entry(b.clone()).or_default() += 1;
    }
    let n = Glicko2Rating::new();
    let kfb_won = glicko2_rating_period(&n, &[(n, Outcomes::WIN); 3], &cfg);
    let kfb_lost = glicko2_rating_period(&n, &[(n, Outcomes::LOSS); 3], &cfg);
    let wl = WengLinConfig::new();
    let mut want_wl: HashMap<String, WengLinRating> = HashMap::new();
    for (seats, order) in ultimate.iter().zip(concede) {
        // Places: the winner 1st, then the last to concede 2nd, and so on.
        let place = |s: usize| match order.iter().position(|&o| o == s) {
            None => 1,
            Some(k) => 4 - k,
        };
        let teams: Vec<[WengLinRating; 1]> = seats
            .iter()
            .map(|p| [want_wl.get(*p).copied().unwrap_or_default()])
            .collect();
        let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .enumerate()
            .map(|(s, t)| (&t[..], MultiTeamOutcome::new(place(s))))
            .collect();
        let new = weng_lin_multi_team(&ranked, &wl);
        for (p, r) in seats.iter().zip(new) {
            want_wl.insert(p.to_string(), r[0]);
        }
    }

    // Through /rating: the pinned line, rounded.
    for p in PLAYERS {
        let r = want[p];
        let n = games[p];
        let out = c.line(&format!("ann /rating player:@{p} game:chex"));
        let prefix = format!(
            "ok: {p}: Chex rating {} ± {} ({n} games){}",
            r.rating.round() as i64,
            r.deviation.round() as i64,
            if n < 5 { ", provisional" } else { "" }
        );
        assert!(out[0].starts_with(&prefix), "{p}: {out:?}, want {prefix}");
    }
    drop(c);

    // Through the service, on the stored games.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let store = Store::connect(Some(&url)).await.unwrap();
        let svc = Service::with_store(store).await.unwrap();
        let table = svc.ratings("chex", None).await.unwrap();
        assert_eq!(table.players.len(), 6);
        for p in PLAYERS {
            let (got, w) = (table.of(p), want[p]);
            assert!(
                (got.rating - w.rating).abs() < 1e-9,
                "{p}: {got:?} vs {w:?}"
            );
            assert!((got.deviation - w.deviation).abs() < 1e-9, "{p}");
            assert!((got.volatility - w.volatility).abs() < 1e-12, "{p}");
            assert_eq!(got.games, games[p], "{p}");
        }
        let kfb = svc.ratings("kfb", None).await.unwrap();
        for p in ["ann", "ben", "cat"] {
            assert!((kfb.of(p).rating - kfb_lost.rating).abs() < 1e-9, "{p}");
        }
        for p in ["dan", "eve", "fay"] {
            assert!((kfb.of(p).rating - kfb_won.rating).abs() < 1e-9, "{p}");
            assert!(
                (kfb.of(p).deviation - kfb_won.deviation).abs() < 1e-9,
                "{p}"
            );
        }
        let ult = svc.ratings("ultimate", None).await.unwrap();
        for (p, w) in &want_wl {
            assert!((ult.of(p).rating - w.rating).abs() < 1e-9, "{p}");
            assert!((ult.of(p).deviation - w.uncertainty).abs() < 1e-9, "{p}");
        }
        // What a tournament seeds by.
        let seeds = svc
            .current(None, "chex", &["ann".to_string(), "nobody".to_string()])
            .await
            .unwrap();
        assert!((seeds["ann"].rating - want["ann"].rating).abs() < 1e-9);
        assert_eq!(seeds["nobody"].rating, 1500.0);
    });
}
