//! Party Chess through the fake Discord (issue 19): `/party new` opens a thread with a pinned
//! status, four Swingers pick their pieces, play in Play List order with the picture
//! attached, the Swinger to play (and any Swinger put in check) is notified, a refusal is
//! private, and the pictures decode.

use serde_json::json;

use super::fake::{Fake, User};
use super::{accepted, connected, message, refused, scratch, seats_from, text, Bot};

/// Every PNG upload decodes as a picture wide enough for the 20×20 board and its panel.
fn party_pictures(fake: &Fake) -> usize {
    let uploads = fake.lock().uploads.clone();
    let mut n = 0;
    for (name, bytes) in uploads.iter().filter(|(n, _)| n.ends_with(".png")) {
        let img = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
            .unwrap_or_else(|e| panic!("{name} does not decode: {e}"));
        assert!(
            (800..=1600).contains(&img.width()) && (800..=1200).contains(&img.height()),
            "{name}: {}x{}",
            img.width(),
            img.height()
        );
        n += 1;
    }
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_party_game_through_discord() {
    let fake = Fake::start().await;
    let dir = scratch("bot-party");
    let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
    let bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    let (p, org) = seats_from(700);
    let [ann, ben, cat, dan, ..] = &p;
    let ids = |us: &[&User]| -> Vec<String> { us.iter().map(|u| u.id.to_string()).collect() };

    // Creation: a thread of its own, the four Swingers notified once, a pinned status.
    let mark = fake.mark();
    let options = json!([text(
        "swingers",
        &format!("<@{}> <@{}> <@{}> <@{}>", ann.id, ben.id, cat.id, dan.id)
    )]);
    let t = fake.slash(&org, super::CHANNEL, "party new", options, &[]);
    let r = accepted(&fake.answer(&t).await, "party new");
    assert!(r.contains("Game created in"), "{r}");
    let thread = fake.lock().threads.last().expect("a thread").0;
    let opened = fake
        .wait("the game's first messages", 10, |i| {
            let p = i.public(thread);
            (p.len() >= 3).then(|| p.iter().map(|m| (*m).clone()).collect::<Vec<_>>())
        })
        .await;
    assert!(opened[0].content.contains("Party Chess created by"));
    assert!(opened
        .iter()
        .any(|m| m.pinned && m.content.contains("Game status")));
    let mut told = fake.notified_since(thread, mark).await;
    told.sort();
    assert_eq!(
        told,
        ids(&[ann, ben, cat, dan]),
        "the four Swingers are notified once"
    );

    // Selection: a pick over 30 is refused privately; the last pick starts play and
    // notifies the first Swinger (ann, named first).
    let t = fake.slash(
        ann,
        thread,
        "party pieces",
        json!([text("set", "RRRBP")]),
        &[],
    );
    let r = refused(&fake.answer(&t).await, "a pick worth 34");
    assert!(r.contains("34"), "{r}");
    for (u, set) in [(ann, "RRJPP"), (ben, "RBCJP"), (cat, "TJJPP")] {
        let t = fake.slash(u, thread, "party pieces", json!([text("set", set)]), &[]);
        accepted(&fake.answer(&t).await, set);
    }
    let mark = fake.mark();
    let t = fake.slash(
        dan,
        thread,
        "party pieces",
        json!([text("set", "OEQ%P")]),
        &[],
    );
    let r = accepted(&fake.answer(&t).await, "the last pick");
    assert!(r.contains("play begins"), "{r}");
    let first = fake.notified_since(thread, mark).await;
    assert_eq!(first.len(), 1, "{first:?}");

    // Play in Play List order, each play with its picture, notifying the next only.
    // The Play List as announced at creation (ann first, the rest in the seed's order).
    let listed = opened[0]
        .content
        .split("Play List")
        .nth(1)
        .expect("the Play List")
        .split(';')
        .next()
        .unwrap_or("")
        .to_string();
    let mut order: Vec<&User> = vec![ann, ben, cat, dan];
    order.sort_by_key(|u| listed.find(&u.id.to_string()).unwrap_or(usize::MAX));
    assert_eq!(order[0].id.to_string(), first[0], "{listed}");
    let plays = ["K@c3", "K@r3", "K@c18", "K@r18"];
    for (i, mv) in plays.iter().enumerate() {
        let (user, next) = (order[i], order[(i + 1) % 4]);
        let mark = fake.mark();
        let t = fake.slash(user, thread, "move", json!([text("notation", mv)]), &[]);
        let answer = fake.answer(&t).await;
        let r = accepted(&answer, mv);
        assert!(r.contains(mv) && r.contains("Weights:"), "{r}");
        assert_eq!(message(&answer).files, ["board.png"], "{answer:?}");
        assert_eq!(
            fake.notified_since(thread, mark).await,
            ids(&[next]),
            "after {mv}"
        );
    }

    // Out of turn: refused privately, nobody notified.
    let mark = fake.mark();
    let t = fake.slash(
        order[1],
        thread,
        "move",
        json!([text("notation", "Kr3-r4")]),
        &[],
    );
    let r = refused(&fake.answer(&t).await, "out of turn");
    assert!(r.contains("turn"), "{r}");
    assert!(fake.notified_since(thread, mark).await.is_empty());

    // /pass and /moves for a placement piece.
    let t = fake.slash(order[0], thread, "moves", json!([text("piece", "P")]), &[]);
    let answer = fake.answer(&t).await;
    let m = message(&answer);
    assert!(
        m.ephemeral && m.content.contains("P@a1") && !m.content.contains("K"),
        "{m:?}"
    );
    let mark = fake.mark();
    let t = fake.slash(order[0], thread, "pass", json!([]), &[]);
    accepted(&fake.answer(&t).await, "pass");
    assert_eq!(fake.notified_since(thread, mark).await, ids(&[order[1]]));

    // A Swinger leaving the server turns Warm (RULINGS §3.6): the bot posts it in the
    // thread; it is their turn, so they pass at once and the next Swinger is notified.
    let mark = fake.mark();
    fake.member_leaves(order[1]);
    let posted = fake
        .wait("the Warm notice", 10, |i| {
            i.public(thread)
                .iter()
                .find(|m| m.content.contains("left the server and is Warm"))
                .map(|m| m.content.clone())
        })
        .await;
    assert!(posted.contains("is Warm and passes"), "{posted}");
    assert_eq!(
        fake.notified_since(thread, mark).await,
        ids(&[order[2]]),
        "{posted}"
    );
    let t = fake.slash(order[2], thread, "status", json!([]), &[]);
    let status = message(&fake.answer(&t).await).content.clone();
    assert!(status.contains("Warm:"), "{status}");

    assert!(party_pictures(&fake) >= 4, "every play's picture decodes");
    drop(bot);
}
