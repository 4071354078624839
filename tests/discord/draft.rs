//! The draft through Discord (RULINGS §1.8, tests/scripts/draft.txt): only the player the seed
//! names makes the first pick; a choice that breaks a constraint is refused to its sender only,
//! while the thread gets a new message that notifies the other team, who pick the replacement
//! with `/pick for:`; a revert across the hand-over reproduces it.

use std::time::Instant;

use serde_json::{json, Value};

use super::fake::{Fake, Msg, User, MANAGE_MESSAGES, MEMBER};
use super::{accepted, connected, int, message, pick, refused, scratch, seats, text, Bot, CHANNEL};

fn pick_for(order: u64, color: u64, army: u64, whom: &User) -> Value {
    let mut options = pick(order, color, army);
    if let Some(list) = options.as_array_mut() {
        list.push(json!({"name": "for", "type": 6, "value": whom.id.to_string()}));
    }
    options
}

/// The thread's public messages that are not interaction answers (newly created messages).
fn thread_messages(fake: &Fake, thread: u64) -> Vec<Msg> {
    fake.lock()
        .public(thread)
        .into_iter()
        .filter(|m| m.interaction.is_none())
        .cloned()
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_handed_over_choice_through_discord() {
    let started = Instant::now();
    let fake = Fake::start().await;
    let dir = scratch("bot-draft");
    let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
    let _bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    let ([a, b, c, d, e, f], org) = seats();
    let modr = User {
        id: 100_000_000_000_000_011,
        name: "mod",
        permissions: MEMBER | MANAGE_MESSAGES,
        roles: &[],
    };
    let mention = |u: &User| format!("<@{}>", u.id);
    let ids = |us: &[&User]| -> Vec<String> { us.iter().map(|u| u.id.to_string()).collect() };

    let teams = json!([
        text(
            "team1",
            &format!("{} {} {}", mention(&a), mention(&b), mention(&c))
        ),
        text(
            "team2",
            &format!("{} {} {}", mention(&d), mention(&e), mention(&f))
        ),
        int("seed", 1),
    ]);
    let t = fake.slash(&org, CHANNEL, "kfb new", teams, &[]);
    accepted(&fake.answer(&t).await, "kfb new");
    let thread = fake.lock().threads[0].0;
    let opening = thread_messages(&fake, thread);
    assert!(
        opening[0]
            .content
            .contains(&format!("first picker {} (team 2)", mention(&f))),
        "{}",
        opening[0].content
    );
    // The game's six players are notified once, told that f makes the first pick.
    assert_eq!(
        opening[1].notified,
        ids(&[&a, &b, &c, &d, &e, &f]),
        "{:?}",
        opening[1]
    );
    assert!(
        opening[1]
            .content
            .contains(&format!("{} (team 2) makes the first pick", mention(&f))),
        "{}",
        opening[1].content
    );

    // Until the first pick only f may pick: f's teammate is refused, naming f.
    let t = fake.slash(&d, thread, "pick", pick(1, 1, 1), &[]);
    let r = refused(&fake.answer(&t).await, "d before f");
    assert!(
        r.contains(&format!("{} makes the first pick", mention(&f))),
        "{r}"
    );
    for (user, choice, number) in [(&f, pick(1, 0, 0), "#1"), (&a, pick(0, 0, 0), "#2")] {
        let t = fake.slash(user, thread, "pick", choice, &[]);
        let r = accepted(&fake.answer(&t).await, "pick");
        assert!(r.contains(number), "{r}");
    }
    // After the first pick any player of the team on turn who has not picked: e.
    let t = fake.slash(&e, thread, "pick", pick(0, 2, 3), &[]);
    accepted(&fake.answer(&t).await, "e's pick");

    // b takes red, which a has: refused to b alone, and the thread is told in a new message
    // that notifies team 2 (and nobody else) and says how to pick the replacement.
    let before = thread_messages(&fake, thread).len();
    let t = fake.slash(&b, thread, "pick", pick(1, 0, 2), &[]);
    let answer = fake.answer(&t).await;
    let r = refused(&answer, "b's choice");
    assert!(
        r.contains("choice second red nutty is refused: team 1 already has a red player")
            && r.contains("handed over (#4)")
            && r.contains(&format!("/pick for:{}", mention(&b))),
        "{r}"
    );
    assert!(message(&answer).pings.is_empty(), "{answer:?}");
    let notice = fake
        .wait("the hand-over notice", 10, |i| {
            let news: Vec<&Msg> = i
                .public(thread)
                .into_iter()
                .filter(|m| m.interaction.is_none())
                .collect();
            // Notifications follow their replies, so earlier ones may still be arriving.
            news.into_iter()
                .skip(before)
                .find(|m| m.content.starts_with("#4 "))
                .cloned()
        })
        .await;
    assert!(!notice.ephemeral);
    assert!(
        notice.content.starts_with("#4 ")
            && notice.content.contains(&format!(
                "{} {} {}: team 2, pick the replacement for {} with /pick for:{}",
                mention(&d),
                mention(&e),
                mention(&f),
                mention(&b),
                mention(&b)
            )),
        "{}",
        notice.content
    );
    assert_eq!(notice.pings, ids(&[&d, &e, &f]), "only team 2 is notified");
    assert!(
        !fake
            .lock()
            .public(thread)
            .iter()
            .any(|m| m.content.contains("is refused") && m.interaction.is_some()),
        "the refusal is not public"
    );
    // The pinned status says who picks now.
    fake.wait("the status after the hand-over", 5, |i| {
        i.public(thread)
            .into_iter()
            .find(|m| m.pinned && m.content.contains("picks the replacement for"))
            .map(|_| ())
    })
    .await;

    // Team 1 waits; any player of team 2 picks the replacement, f included.
    let t = fake.slash(&c, thread, "pick", pick(0, 2, 4), &[]);
    let r = refused(&fake.answer(&t).await, "c during the hand-over");
    assert!(r.contains("now picks a replacement"), "{r}");
    let t = fake.slash(&f, thread, "pick", pick_for(1, 1, 2, &b), &[&b]);
    let r = accepted(&fake.answer(&t).await, "f's replacement for b");
    assert!(
        r.contains(&format!("#5 {} picks second lightgreen nutty", mention(&b))),
        "{r}"
    );
    for (user, choice) in [(&d, pick(1, 1, 1)), (&c, pick(0, 2, 4))] {
        let t = fake.slash(user, thread, "pick", choice, &[]);
        accepted(&fake.answer(&t).await, "pick");
    }

    // A revert across the hand-over; b's same choice is handed over again, as #9.
    let t = fake.slash(
        &modr,
        thread,
        "revert",
        json!([int("to", 4), text("reason", "replay check")]),
        &[],
    );
    let preview = message(&fake.answer(&t).await).clone();
    assert!(preview.content.contains("#4"), "{}", preview.content);
    let t = fake.press(&modr, &preview, "revert-confirm-1");
    let r = accepted(&fake.answer(&t).await, "the revert");
    assert!(r.contains("#8"), "{r}");
    let before = thread_messages(&fake, thread).len();
    let t = fake.slash(&b, thread, "pick", pick(1, 0, 2), &[]);
    let r = refused(&fake.answer(&t).await, "b's choice again");
    assert!(r.contains("handed over (#9)"), "{r}");
    let notice = fake
        .wait("the second hand-over notice", 10, |i| {
            let news: Vec<&Msg> = i
                .public(thread)
                .into_iter()
                .filter(|m| m.interaction.is_none())
                .collect();
            // Notifications follow their replies, so earlier ones may still be arriving.
            news.into_iter()
                .skip(before)
                .find(|m| m.content.starts_with("#9 "))
                .cloned()
        })
        .await;
    assert!(notice.content.starts_with("#9 "), "{}", notice.content);
    assert_eq!(notice.pings, ids(&[&d, &e, &f]));
    let t = fake.slash(&e, thread, "pick", pick_for(1, 1, 2, &b), &[&b]);
    let r = accepted(&fake.answer(&t).await, "e's replacement for b");
    assert!(r.contains("#10"), "{r}");

    let inner = fake.lock();
    assert!(
        inner.errors.is_empty(),
        "fake Discord saw: {:#?}",
        inner.errors
    );
    eprintln!("draft e2e took {:?}", started.elapsed());
}
