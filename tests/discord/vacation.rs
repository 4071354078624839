//! Vacation days on Discord (issue 42), by who is pinged. `/vacation` is answered privately
//! and pings nobody, whether it is taken, shown, ended or refused. While the player to act is
//! away, no reminder pings them and their turn limit does not run out; after
//! `/vacation off:true` the limit runs for the time that was left (later by the time away),
//! reminders count from the return, and the expiry pings the next player as usual. A game
//! made with `vacation:off` is named in the answer as not waiting, and its limit runs out on
//! time.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::fake::{Answer, Fake, User};
use super::{
    accepted, connected, ids, int, message, move_as, refused, scratch, seats_from, text,
    timestamps, unix_now, Bot, CHANNEL,
};

/// A turn in both games.
const TURN_LIMIT: u64 = 4;

/// An answer to `/vacation`: the first response (not deferred), private, notifying nobody.
fn private(a: &Answer, what: &str) -> String {
    let m = message(a);
    assert_eq!(a.first, 4, "{what}: answered at once, not deferred: {a:?}");
    assert!(m.ephemeral, "{what}: must be private: {m:?}");
    assert!(m.notified.is_empty(), "{what}: {m:?}");
    m.content.clone()
}

/// Everyone notified, in any channel, since `mark` (channel, user), once the bot settled.
async fn notified_anywhere(fake: &Fake, mark: usize) -> Vec<(u64, String)> {
    fake.settle().await;
    fake.lock()
        .notifications
        .iter()
        .skip(mark)
        .map(|n| (n.1, n.2.clone()))
        .collect()
}

/// `/status` in a game's thread: private; its text.
async fn status(fake: &Fake, user: &User, thread: u64) -> String {
    let t = fake.slash(user, thread, "status", json!([]), &[]);
    let answer = fake.answer(&t).await;
    let m = message(&answer);
    assert!(m.ephemeral && m.notified.is_empty(), "{m:?}");
    m.content.clone()
}

/// The deadline of the turn in a Party Chess `/status`: who plays and until when.
fn to_play(status: &str) -> (String, u64) {
    let line = status
        .lines()
        .find(|l| l.starts_with("To play: "))
        .unwrap_or_else(|| panic!("no turn in {status}"));
    let who = line["To play: ".len()..]
        .split(' ')
        .next()
        .unwrap_or_default()
        .to_string();
    let until = timestamps(line, 'f');
    assert_eq!(until.len(), 1, "{line}");
    (who, until[0])
}

/// `/party new` by the organiser with these Swingers (the first named plays first) and
/// options; returns the game's thread.
async fn party(fake: &Fake, org: &User, swingers: &[&User], more: &[Value]) -> u64 {
    let named: Vec<String> = swingers.iter().map(|u| format!("<@{}>", u.id)).collect();
    let mut options = vec![text("swingers", &named.join(" "))];
    options.extend_from_slice(more);
    let known = fake.lock().threads.len();
    let t = fake.slash(org, CHANNEL, "party new", Value::Array(options), &[]);
    accepted(&fake.answer(&t).await, "party new");
    fake.lock().threads[known].0
}

async fn pick(fake: &Fake, user: &User, thread: u64, set: &str) -> String {
    let t = fake.slash(user, thread, "party pieces", json!([text("set", set)]), &[]);
    accepted(&fake.answer(&t).await, set)
}

/// A public message in `thread` whose text contains `what`, waited for.
async fn posted(fake: &Fake, thread: u64, what: &str, secs: u64) -> super::fake::Msg {
    fake.wait(what, secs, |i| {
        i.public(thread)
            .into_iter()
            .find(|m| m.content.contains(what))
            .cloned()
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_away_player_is_not_reminded_and_their_turn_limit_waits_for_their_return() {
    let started = Instant::now();
    let fake = Fake::start().await;
    let dir = scratch("bot-vacation");
    let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
    let bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    let (p, org) = seats_from(1900);
    let [ann, ben, cat, ..] = &p;
    let mention = |u: &User| format!("<@{}>", u.id);
    let vacation = |options: Value| fake.slash(ann, CHANNEL, "vacation", options, &[]);
    let off = || json!({"name": "off", "type": 5, "value": true});

    // Refused, privately, pinging nobody: off when not away, an until: that does not read,
    // both at once. /vacation alone shows the bank, privately.
    let mark = fake.mark();
    let t = vacation(json!([off()]));
    let r = refused(&fake.answer(&t).await, "/vacation off:true when not away");
    assert!(r.contains("you are not on vacation"), "{r}");
    let t = vacation(json!([text("until", "soon")]));
    let r = refused(&fake.answer(&t).await, "/vacation until:soon");
    assert!(r.contains("until: takes a duration"), "{r}");
    let t = vacation(json!([text("until", "2d"), off()]));
    let r = refused(&fake.answer(&t).await, "/vacation until:2d off:true");
    assert!(r.contains("not both"), "{r}");
    let t = vacation(json!([]));
    let r = private(&fake.answer(&t).await, "/vacation alone");
    assert!(
        r.starts_with("you are not on vacation") && r.contains("14 of your 14"),
        "{r}"
    );
    assert!(notified_anywhere(&fake, mark).await.is_empty());

    // ben wants no reminders, so the only reminders below are ann's.
    let t = fake.slash(ben, CHANNEL, "notify", json!([int("reminders", 1)]), &[]);
    let r = message(&fake.answer(&t).await).clone();
    assert!(r.ephemeral && r.content.contains("reminders off"), "{r:?}");

    // Two Party Chess games with four-second turns. In `waits`, made with vacation:off and
    // no reminders, ann plays first against cat; in `game`, ben plays first, then ann, and
    // whoever is waited on is reminded after a second.
    let limit = text("turn_limit", &format!("{TURN_LIMIT}s"));
    let waits = party(
        &fake,
        &org,
        &[ann, cat],
        &[limit.clone(), text("remind", "off"), int("vacation", 1)],
    )
    .await;
    let game = party(&fake, &org, &[ben, ann], &[limit, text("remind", "1s")]).await;
    pick(&fake, ann, game, "RRJPP").await;
    let r = pick(&fake, ben, game, "RBCJP").await;
    assert!(r.contains("play begins"), "{r}");
    pick(&fake, cat, waits, "TJJPP").await;
    let r = pick(&fake, ann, waits, "RRJPP").await;
    assert!(r.contains("play begins"), "{r}");
    let (first, waits_due) = to_play(&status(&fake, cat, waits).await);
    assert_eq!(first, mention(ann));

    // ann goes away for a day: a private answer naming the game that does not wait for her;
    // nobody is pinged anywhere.
    let mark = fake.mark();
    let asked = unix_now();
    let t = vacation(json!([text("until", "1d")]));
    let r = private(&fake.answer(&t).await, "/vacation until:1d");
    assert!(r.starts_with("you are away until <t:"), "{r}");
    let back = timestamps(&r, 'f')[0];
    assert!(
        back >= asked + 86_400 && back <= unix_now() + 86_400,
        "{r} (asked at {asked})"
    );
    assert!(r.contains("13 of your 14 vacation days left"), "{r}");
    assert!(
        r.contains(&format!(
            "these games do not wait for you (vacation:off): their limits run and they remind you as usual: <#{waits}> (Party Chess)"
        )),
        "{r}"
    );
    assert!(!r.contains(&format!("<#{game}>")), "{r}");
    let pinged = notified_anywhere(&fake, mark).await;
    assert!(pinged.is_empty(), "/vacation pinged {pinged:?}");

    // /status of both games starts with her absence; the one made with vacation:off keeps
    // her deadline.
    let away = format!(
        "{} is away until <t:{back}:f> (<t:{back}:R>): ",
        mention(ann)
    );
    let s = status(&fake, cat, waits).await;
    assert_eq!(
        s.lines().next(),
        Some(format!("{away}this game does not wait for them (vacation:off)").as_str()),
        "{s}"
    );
    assert_eq!(to_play(&s), (mention(ann), waits_due), "{s}");
    assert!(waits_due <= asked + TURN_LIMIT, "{s}");
    let s = status(&fake, ben, game).await;
    assert_eq!(
        s.lines().next(),
        Some(format!("{away}the limits of their turns wait for them").as_str()),
        "{s}"
    );

    // ben plays: ann's turn begins while she is away. The turn's ping still comes (a turn
    // ping is no reminder); her limit starts at her return.
    let mark = fake.mark();
    let t = move_as(&fake, ben, game, "K@c3");
    accepted(&fake.answer(&t).await, "ben's K@c3");
    let turn_began = Instant::now();
    let turn_began_unix = unix_now();
    assert_eq!(fake.notified_since(game, mark).await, ids(&[ann]));
    let away_mark = fake.mark();
    let s = status(&fake, ben, game).await;
    assert_eq!(to_play(&s), (mention(ann), back + TURN_LIMIT), "{s}");

    // In the game made with vacation:off her turn runs out on time, while she is away: cat,
    // who plays next, is pinged, and nobody else.
    let expired = posted(&fake, waits, "'s turn expired", 10).await;
    assert!(
        expired
            .content
            .contains(&format!("{}'s turn expired", mention(ann))),
        "{}",
        expired.content
    );
    assert_eq!(expired.notified, ids(&[cat]), "{}", expired.content);
    assert_eq!(fake.notified_since(waits, mark).await, ids(&[cat]));

    // Past her original deadline (and past the reminders a second apart) in the other game:
    // no reminder, no expiry, nobody pinged; she is still to play, until her return plus
    // the whole limit.
    let past = turn_began + Duration::from_millis(TURN_LIMIT * 1000 + 1300);
    tokio::time::sleep_until(past.into()).await;
    assert!(unix_now() > turn_began_unix + TURN_LIMIT);
    let pinged = fake.notified_since(game, away_mark).await;
    assert!(pinged.is_empty(), "pinged while ann is away: {pinged:?}");
    assert!(
        !fake
            .lock()
            .public(game)
            .iter()
            .any(|m| m.content.contains("turn expired")),
        "the turn ran out while ann was away"
    );
    let s = status(&fake, ben, game).await;
    assert_eq!(to_play(&s), (mention(ann), back + TURN_LIMIT), "{s}");

    // She comes back early: a private answer, pinging nobody; the day begun is spent.
    let mark = fake.mark();
    let seen = fake.lock().public(game).len();
    let before_off = unix_now();
    let off_at = Instant::now();
    let t = vacation(json!([off()]));
    let r = private(&fake.answer(&t).await, "/vacation off:true");
    let after_off = unix_now();
    assert!(
        r.starts_with("welcome back") && r.contains("13 of your 14 vacation days left"),
        "{r}"
    );
    assert!(fake.lock().notified_since(CHANNEL, mark).is_empty());
    // Her whole limit is left, from her return; the status no longer says she is away.
    let s = status(&fake, ben, game).await;
    assert!(s.starts_with("Party Chess"), "{s}");
    let (who, due) = to_play(&s);
    assert_eq!(who, mention(ann), "{s}");
    assert!(
        (before_off + TURN_LIMIT..=after_off + TURN_LIMIT).contains(&due),
        "{s} (back between {before_off} and {after_off})"
    );

    // Then she is reminded (counting from her return), and her turn runs out at the new
    // deadline: the expiry pings ben, who plays next, as usual.
    let expired = posted(&fake, game, "'s turn expired", 12).await;
    assert!(
        expired
            .content
            .contains(&format!("{}'s turn expired", mention(ann))),
        "{}",
        expired.content
    );
    assert!(
        off_at.elapsed() >= Duration::from_secs(TURN_LIMIT - 1),
        "expired {:?} after her return",
        off_at.elapsed()
    );
    assert_eq!(expired.notified, ids(&[ben]), "{}", expired.content);
    let pinged = fake.notified_since(game, mark).await;
    let reminders: Vec<super::fake::Msg> = fake
        .lock()
        .public(game)
        .into_iter()
        .skip(seen)
        .filter(|m| m.content.contains("reminder:"))
        .cloned()
        .collect();
    assert!(
        (1..=2).contains(&reminders.len()),
        "a reminder or two between her return and the expiry: {reminders:#?}"
    );
    for m in &reminders {
        assert_eq!(m.notified, ids(&[ann]), "{}", m.content);
        assert!(
            m.content.contains("Party Chess waits on you"),
            "{}",
            m.content
        );
        // It tells since when the game waits on her (her turn's start) and her new
        // deadline.
        let stamps = timestamps(&m.content, 'R');
        assert_eq!(stamps.len(), 2, "{}", m.content);
        assert!(
            (turn_began_unix.saturating_sub(1)..=turn_began_unix).contains(&stamps[0]),
            "{} (ann's turn began at {turn_began_unix})",
            m.content
        );
        assert_eq!(stamps[1], due, "{}", m.content);
    }
    let mut want = vec![ann.id.to_string(); reminders.len()];
    want.push(ben.id.to_string());
    assert_eq!(pinged, want, "after her return: ann reminded, then ben");

    let errors = fake.lock().errors.clone();
    assert!(errors.is_empty(), "fake Discord saw: {errors:#?}");
    eprintln!("vacation e2e took {:?}", started.elapsed());
    drop(bot);
}
