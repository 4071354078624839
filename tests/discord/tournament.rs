//! A tournament through Discord: its thread, signups, teams, a pairing that opens a thread per
//! match, a match game ended by resignation (its result reaches the tournament thread), a
//! result set by the organiser, the standings and the TRF export.

use std::collections::HashMap;
use std::time::Instant;

use serde_json::{json, Value};

use super::fake::{Fake, User, MANAGE_MESSAGES, MANAGE_THREADS, MEMBER};
use super::{
    accepted, connected, int, message, pick, player, refused, scratch, text, Bot, CHANNEL,
};

fn mate(name: &str, u: &User) -> Value {
    json!({"name": name, "type": 6, "value": u.id.to_string()})
}

/// The public posts of a channel: (content, users it notified, pinned).
fn posts(fake: &Fake, channel: u64) -> Vec<(String, Vec<String>, bool)> {
    fake.lock()
        .public(channel)
        .into_iter()
        .map(|m| (m.content.clone(), m.notified.clone(), m.pinned))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_through_discord() {
    let started = Instant::now();
    let fake = Fake::start().await;
    let dir = scratch("bot-tournament");
    let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
    let bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    const NAMES: [&str; 12] = [
        "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12",
    ];
    let players: Vec<User> = NAMES
        .iter()
        .enumerate()
        .map(|(i, n)| player(200 + i as u64, n))
        .collect();
    let by_id: HashMap<String, User> = players
        .iter()
        .map(|u| (u.id.to_string(), u.clone()))
        .collect();
    let org = User {
        id: 100_000_000_000_000_020,
        name: "org",
        permissions: MEMBER | MANAGE_THREADS,
        roles: &[],
    };
    let someone = &players[5];

    // Registration: /tournament with its subcommands, /signup and /withdraw.
    let commands = fake.lock().commands.clone();
    let find = |n: &str| commands.iter().find(|c| c["name"] == n).cloned();
    let t_cmd = find("tournament").expect("/tournament registered");
    let subs: Vec<&str> = t_cmd["options"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|o| o["name"].as_str())
        .collect();
    for want in [
        "new",
        "teams",
        "pair",
        "result",
        "withdraw",
        "standings",
        "pairings",
        "export",
        "status",
    ] {
        assert!(subs.contains(&want), "/tournament {want}: {subs:?}");
    }
    let result_sub = t_cmd["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "result")
        .unwrap();
    let result_opt = result_sub["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "result")
        .unwrap();
    assert_eq!(result_opt["choices"].as_array().unwrap().len(), 7);
    let signup = find("signup").expect("/signup registered");
    assert_eq!(signup["options"][0]["type"], 6, "mate1 is a user option");
    assert!(find("withdraw").is_some(), "/withdraw registered");

    // Only organisers start tournaments; a refusal creates nothing.
    let new = json!([text("name", "Winter Cup"), int("losses_to_eliminate", 2)]);
    let t = fake.slash(someone, CHANNEL, "tournament new", new.clone(), &[]);
    let r = refused(&fake.answer(&t).await, "tournament new by a player");
    assert!(r.contains("organiser"), "{r}");
    let t = fake.slash(
        &org,
        CHANNEL,
        "tournament new",
        json!([text("name", "Bad"), text("points", "1/2/0")]),
        &[],
    );
    let r = refused(&fake.answer(&t).await, "bad points");
    assert!(r.contains("points"), "{r}");
    assert!(fake.lock().threads.is_empty(), "a refusal opened a thread");

    // The organiser's tournament gets a public thread named after it.
    let t = fake.slash(&org, CHANNEL, "tournament new", new.clone(), &[]);
    let created = accepted(&fake.answer(&t).await, "tournament new");
    let cup = {
        let inner = fake.lock();
        assert_eq!(inner.threads.len(), 1);
        let (id, parent, name) = inner.threads[0].clone();
        assert_eq!((parent, name.as_str()), (CHANNEL, "Winter Cup"));
        id
    };
    assert_eq!(created, format!("Tournament created in <#{cup}>."));
    let first = posts(&fake, cup);
    assert_eq!(first.len(), 1, "{first:?}");
    assert!(
        first[0].0.contains("tournament Winter Cup created by")
            && first[0].0.contains(&format!("<@{}>", org.id)),
        "{}",
        first[0].0
    );
    let t = fake.slash(&org, cup, "tournament new", new, &[]);
    let r = refused(&fake.answer(&t).await, "tournament new in a thread");
    assert!(r.contains("text channel"), "{r}");

    // Signups: a named trio, then nine players alone.
    let (a, b, c) = (&players[0], &players[1], &players[2]);
    let mark = fake.mark();
    let t = fake.slash(
        a,
        cup,
        "signup",
        json!([mate("mate1", b), mate("mate2", c)]),
        &[b, c],
    );
    let answer = fake.answer(&t).await;
    let r = accepted(&answer, "signup of a trio");
    assert!(
        r.contains(&format!("<@{}>", b.id)) && r.contains("named trio"),
        "{r}"
    );
    assert!(message(&answer).notified.is_empty(), "{answer:?}");
    assert_eq!(
        fake.notified_since(cup, mark).await,
        vec![b.id.to_string(), c.id.to_string()],
        "the named mates are notified, once"
    );
    for p in &players[3..] {
        let t = fake.slash(p, cup, "signup", json!([]), &[]);
        accepted(&fake.answer(&t).await, "signup");
    }
    let t = fake.slash(b, cup, "signup", json!([]), &[]);
    refused(&fake.answer(&t).await, "a second signup");
    let t = fake.slash(a, CHANNEL, "signup", json!([]), &[]);
    let r = refused(&fake.answer(&t).await, "signup outside the thread");
    assert!(r.contains("no tournament"), "{r}");

    // Teams, with a shown seed (organisers only).
    let t = fake.slash(
        someone,
        cup,
        "tournament teams",
        json!([int("seed", 42)]),
        &[],
    );
    refused(&fake.answer(&t).await, "teams by a player");
    let mark = fake.mark();
    let t = fake.slash(&org, cup, "tournament teams", json!([int("seed", 42)]), &[]);
    let r = accepted(&fake.answer(&t).await, "teams");
    assert!(r.contains("seed 42") && r.contains("Team 4"), "{r}");
    assert!(
        fake.notified_since(cup, mark).await.is_empty(),
        "nobody must act on the teams yet"
    );

    // Pairing: refused to a player; the organiser's opens a thread per match.
    let t = fake.slash(someone, cup, "tournament pair", json!([]), &[]);
    let r = refused(&fake.answer(&t).await, "pair by a player");
    assert!(r.contains("only an organiser"), "{r}");
    // Two organisers' commands at once: one pairs the round, the other finds it being played
    // (and offers the matches not yet open); each match still gets exactly one thread.
    let mark = fake.mark();
    let t1 = fake.slash(&org, cup, "tournament pair", json!([]), &[]);
    let t2 = fake.slash(&org, cup, "tournament pair", json!([]), &[]);
    let (a1, a2) = (fake.answer(&t1).await, fake.answer(&t2).await);
    let texts = [message(&a1).content.clone(), message(&a2).content.clone()];
    let pairing = texts
        .iter()
        .find(|t| t.contains("board 2:"))
        .cloned()
        .unwrap_or_else(|| panic!("one answer is the pairing: {texts:?}"));
    assert!(pairing.contains("round 1"), "{pairing}");
    let matches: Vec<(u64, String)> = fake
        .wait("two match threads", 10, |i| {
            let m: Vec<(u64, String)> = i
                .threads
                .iter()
                .skip(1)
                .map(|t| (t.0, t.2.clone()))
                .collect();
            (m.len() == 2).then_some(m)
        })
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    {
        let inner = fake.lock();
        assert_eq!(
            inner.threads.len(),
            3,
            "the tournament's thread and one per match: {:?}",
            inner.threads
        );
        for t in &inner.threads {
            assert_eq!(t.1, CHANNEL, "match threads open in the channel: {t:?}");
        }
    }
    assert!(
        matches[0].1.starts_with("Winter Cup: round 1 board 1")
            && matches[1].1.starts_with("Winter Cup: round 1 board 2"),
        "{matches:?}"
    );
    let links = fake
        .wait("the match links", 10, |i| {
            i.public(cup)
                .into_iter()
                .find(|m| m.content.contains(&format!("<#{}>", matches[1].0)))
                .map(|m| m.content.clone())
        })
        .await;
    assert_eq!(links.lines().count(), 2, "{links}");
    assert!(links.contains(&format!("<#{}>", matches[0].0)), "{links}");
    // The round opened: each match's six players are notified once, in its thread, by one
    // message that says who picks first; the pairing itself notifies nobody.
    assert!(
        fake.notified_since(cup, mark).await.is_empty(),
        "the pairing notifies nobody in the tournament's thread"
    );
    let mut seats: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    for (thread, _) in &matches {
        let opened = fake
            .wait("a match's first messages", 10, |i| {
                let p = i.public(*thread);
                (p.len() >= 3).then(|| {
                    p.iter()
                        .map(|m| (m.content.clone(), m.notified.clone(), m.pinned))
                        .collect::<Vec<_>>()
                })
            })
            .await;
        let six = fake.notified_since(*thread, mark).await;
        assert_eq!(six.len(), 6, "the match notifies six players: {opened:?}");
        assert!(opened[0].1.is_empty(), "{opened:?}");
        assert_eq!(opened[1].1, six, "one message notifies them: {opened:?}");
        for id in &six {
            assert!(by_id.contains_key(id), "{id} did not sign up");
            assert!(opened[0].0.contains(&format!("<@{id}>")), "{}", opened[0].0);
        }
        // The message names the player who makes the first pick (RULINGS §1.8).
        let first: Vec<String> = six
            .iter()
            .filter(|id| opened[1].0.contains(&format!("<@{id}> (team")))
            .filter(|id| {
                let at = opened[1].0.find(&format!("<@{id}> (team")).unwrap_or(0);
                opened[1].0[at..].contains("makes the first pick")
            })
            .cloned()
            .collect();
        assert!(
            opened[1].0.contains("makes the first pick") && !first.is_empty(),
            "{}",
            opened[1].0
        );
        assert!(opened[2].2 && opened[2].0.contains("Game status"));
        assert!(opened[2].1.is_empty(), "{opened:?}");
        seats.push((six, first));
    }
    let everyone: Vec<&String> = seats.iter().flat_map(|s| s.0.iter()).collect();
    let mut unique = everyone.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 12, "every player plays once");

    // Match 1: the draft (tests/scripts/tournament.txt), the first picker first, then their
    // team's other players (who takes which of a team's choices does not matter).
    let (m1, _) = &matches[0];
    let (six, first) = &seats[0];
    let starter = six.iter().position(|id| *id == first[0]).unwrap();
    let team = starter / 3 * 3;
    let first_team: Vec<&User> = (0..3)
        .map(|k| &by_id[&six[team + (starter % 3 + k) % 3]])
        .collect();
    let other_team: Vec<&User> = six
        .iter()
        .filter(|id| !first_team.iter().any(|u| u.id.to_string() == **id))
        .map(|id| &by_id[id])
        .collect();
    let picks = [
        (first_team[0], pick(0, 2, 4)),
        (other_team[0], pick(1, 1, 1)),
        (first_team[1], pick(0, 0, 0)),
        (other_team[1], pick(0, 2, 3)),
        (first_team[2], pick(1, 1, 2)),
        (other_team[2], pick(1, 0, 0)),
    ];
    let mut last = String::new();
    for (u, choice) in picks {
        let t = fake.slash(u, *m1, "pick", choice, &[]);
        last = accepted(&fake.answer(&t).await, "match pick");
    }
    assert!(last.contains("the game starts"), "{last}");
    // A resignation asks once, to its sender only, with Confirm and Cancel (issue 55).
    let t = fake.slash(other_team[0], *m1, "resign", json!([]), &[]);
    let asked = message(&fake.answer(&t).await).clone();
    assert!(asked.ephemeral, "the question goes to its sender only");
    assert!(
        asked
            .content
            .contains("This ends the game for your whole team."),
        "{}",
        asked.content
    );
    assert_eq!(
        asked.buttons.len(),
        2,
        "Confirm and Cancel: {:?}",
        asked.buttons
    );
    let t = fake.press(other_team[0], &asked, &asked.buttons[0]);
    let r = accepted(&fake.answer(&t).await, "resign");
    assert!(r.contains("resigns"), "{r}");
    let news = fake
        .wait("the result in the tournament thread", 10, |i| {
            i.public(cup)
                .into_iter()
                .find(|m| m.content.starts_with("round 1 board 1:"))
                .map(|m| m.content.clone())
        })
        .await;
    assert!(news.contains("beat"), "{news}");
    assert!(
        news.contains(&format!("<@{}>", first_team[0].id)),
        "players are mentioned: {news}"
    );

    // A moderator reverts the resignation (button): the tournament thread hears that the
    // result is withdrawn; the resignation again brings it back.
    let modr = User {
        id: 100_000_000_000_000_021,
        name: "mod",
        permissions: MEMBER | MANAGE_MESSAGES,
        roles: &[],
    };
    let revert = json!([int("to", 7), text("reason", "resigned by mistake")]);
    let t = fake.slash(&modr, *m1, "revert", revert, &[]);
    let preview = message(&fake.answer(&t).await).clone();
    let button = preview
        .buttons
        .first()
        .cloned()
        .expect("a confirmation button");
    let t = fake.press(&modr, &preview, &button);
    accepted(&fake.answer(&t).await, "confirmed revert");
    fake.wait("the result withdrawn in the tournament thread", 10, |i| {
        i.public(cup)
            .into_iter()
            .find(|m| m.content.contains("its result is withdrawn"))
            .map(|_| ())
    })
    .await;
    let t = fake.slash(other_team[1], *m1, "resign", json!([]), &[]);
    let asked = message(&fake.answer(&t).await).clone();
    let t = fake.press(other_team[1], &asked, &asked.buttons[0]);
    accepted(&fake.answer(&t).await, "resign again");
    fake.wait("the result again", 10, |i| {
        let n = i
            .public(cup)
            .into_iter()
            .filter(|m| m.content.starts_with("round 1 board 1:") && m.content.contains("beat"))
            .count();
        (n == 2).then_some(())
    })
    .await;

    // The organiser sets the other result (1-0 is the first choice).
    let t = fake.slash(
        someone,
        cup,
        "tournament result",
        json!([int("board", 2), int("result", 0)]),
        &[],
    );
    refused(&fake.answer(&t).await, "result by a player");
    let t = fake.slash(
        &org,
        cup,
        "tournament result",
        json!([int("board", 2), int("result", 0)]),
        &[],
    );
    let r = accepted(&fake.answer(&t).await, "result");
    assert!(
        r.contains("round 1 board 2") && r.contains("(set by"),
        "{r}"
    );

    // Standings: a public message with the table as a picture.
    let t = fake.slash(someone, cup, "tournament standings", json!([]), &[]);
    let answer = fake.answer(&t).await;
    let r = accepted(&answer, "standings");
    assert!(r.contains("1. Team"), "{r}");
    assert_eq!(message(&answer).files, vec!["standings.png".to_string()]);
    let png = fake
        .lock()
        .uploads
        .iter()
        .rev()
        .find(|(n, _)| n == "standings.png")
        .map(|(_, b)| b.clone())
        .expect("the standings picture was uploaded");
    let img = image::load_from_memory(&png).expect("standings.png decodes");
    assert!(
        img.width() >= 400 && img.height() >= 150,
        "{}x{}",
        img.width(),
        img.height()
    );

    // A round's table, privately, with its results.
    let t = fake.slash(
        someone,
        cup,
        "tournament pairings",
        json!([int("round", 1)]),
        &[],
    );
    let answer = fake.answer(&t).await;
    let pairings = message(&answer);
    assert!(pairings.ephemeral, "pairings are private: {pairings:?}");
    let r = &pairings.content;
    assert!(
        r.contains("round 1") && r.contains("board 2: Team") && r.contains("[1-0]"),
        "{r}"
    );

    // The export is private, with the TRF attached.
    let t = fake.slash(someone, cup, "tournament export", json!([]), &[]);
    let answer = fake.answer(&t).await;
    let export = message(&answer);
    assert!(export.ephemeral, "{export:?}");
    assert_eq!(export.files, vec!["tournament.trf".to_string()]);
    let trf = fake
        .lock()
        .uploads
        .iter()
        .find(|(n, _)| n == "tournament.trf")
        .map(|(_, b)| String::from_utf8_lossy(b).to_string())
        .unwrap();
    assert!(trf.contains("012 Winter Cup"), "{trf}");

    // /tournament status is private.
    let t = fake.slash(someone, cup, "tournament status", json!([]), &[]);
    let answer = fake.answer(&t).await;
    assert!(message(&answer).ephemeral);

    // Round 2 while Discord refuses new threads: the pairing stands, the organiser is told
    // privately, and /tournament pair offers the unopened matches again.
    fake.lock().fail_threads = true;
    let t = fake.slash(&org, cup, "tournament pair", json!([]), &[]);
    let r = accepted(&fake.answer(&t).await, "pair round 2");
    assert!(r.contains("round 2"), "{r}");
    let told = fake
        .wait("the organiser told", 10, |i| {
            i.messages
                .iter()
                .find(|m| m.ephemeral && m.interaction.as_deref() == Some(t.as_str()))
                .map(|m| m.content.clone())
        })
        .await;
    assert!(
        told.contains("round 2 board 1") && told.contains("/tournament pair again"),
        "{told}"
    );
    assert_eq!(fake.lock().threads.len(), 3, "no thread opened");
    fake.lock().fail_threads = false;
    let t = fake.slash(&org, cup, "tournament pair", json!([]), &[]);
    let r = accepted(&fake.answer(&t).await, "pair again");
    assert!(r.contains("reopening"), "{r}");
    let round2 = fake
        .wait("round 2's match threads", 10, |i| {
            (i.threads.len() == 5).then(|| i.threads[3..].to_vec())
        })
        .await;
    for (thread, parent, name) in &round2 {
        assert_eq!(*parent, CHANNEL);
        assert!(name.starts_with("Winter Cup: round 2 board"), "{name}");
        fake.wait("a round 2 game", 10, |i| {
            (i.notified_since(*thread, 0).len() == 6).then_some(())
        })
        .await;
    }

    let errors = fake.lock().errors.clone();
    assert!(errors.is_empty(), "fake Discord saw: {errors:#?}");
    let log = bot.log();
    assert!(log.contains("match opened"), "{log}");
    assert!(log.contains("match thread not opened"), "{log}");
    assert!(
        !log.contains(super::fake::TOKEN),
        "the token appears in the log"
    );
    drop(bot);
    eprintln!("tournament e2e took {:?}", started.elapsed());
}
