//! Nomic Chess through the fake Discord (issue 20): `/nomic new` opens a thread with a pinned
//! status, three players push and move with the picture attached, a refusal is private, a
//! proposal carries vote buttons that the players press, and the vote closes when everyone
//! has voted.

use serde_json::json;

use super::fake::{Fake, User};
use super::{accepted, connected, int, message, refused, scratch, seats_from, text, Bot};

/// Every PNG upload decodes as a phone-sized picture.
fn pictures(fake: &Fake) -> usize {
    let uploads = fake.lock().uploads.clone();
    let mut n = 0;
    for (name, bytes) in uploads.iter().filter(|(n, _)| n.ends_with(".png")) {
        let img = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
            .unwrap_or_else(|e| panic!("{name} does not decode: {e}"));
        assert!(
            (500..=1000).contains(&img.width()) && (500..=1600).contains(&img.height()),
            "{name}: {}x{}",
            img.width(),
            img.height()
        );
        n += 1;
    }
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nomic_game_through_discord() {
    let fake = Fake::start().await;
    let dir = scratch("bot-nomic");
    let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
    let bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    let (p, org) = seats_from(700);
    let [ann, ben, cat, ..] = &p;
    let ids = |us: &[&User]| -> Vec<String> { us.iter().map(|u| u.id.to_string()).collect() };
    let mention = |u: &User| format!("<@{}>", u.id);

    let mark = fake.mark();
    let options = json!([
        text(
            "players",
            &format!("{} {} {}", mention(ann), mention(ben), mention(cat))
        ),
        text("referees", &mention(&org)),
        text(
            "order",
            &format!("{} {} {}", mention(ann), mention(ben), mention(cat))
        ),
    ]);
    let t = fake.slash(&org, super::CHANNEL, "nomic new", options, &[ann, ben, cat]);
    let r = accepted(&fake.answer(&t).await, "nomic new");
    assert!(r.contains("Game created in"), "{r}");
    let thread = fake.lock().threads.last().expect("a thread").0;
    let opened = fake
        .wait("the game's first messages", 10, |i| {
            let p = i.public(thread);
            (p.len() >= 3).then(|| p.iter().map(|m| (*m).clone()).collect::<Vec<_>>())
        })
        .await;
    assert!(
        opened[0].content.contains("Nomic Chess created by"),
        "{:?}",
        opened[0]
    );
    assert_eq!(
        opened[0].files,
        ["ruleset.txt"],
        "the ruleset comes with the game"
    );
    let ruleset = fake
        .lock()
        .uploads
        .iter()
        .find(|(n, _)| n == "ruleset.txt")
        .map(|(_, b)| String::from_utf8_lossy(b).to_string())
        .expect("the ruleset uploaded");
    assert!(ruleset.contains("Rule 217 (mutable)"), "{ruleset}");
    assert!(ruleset.contains("Rule 103 (immutable, referee-enforced)"));
    assert!(opened
        .iter()
        .any(|m| m.pinned && m.content.contains("Game status")));
    assert_eq!(
        fake.notified_since(thread, mark).await,
        ids(&[ann, ben, cat]),
        "the three players are notified once"
    );

    // Each player pushes and moves; the move carries the picture; the next is notified.
    for (user, next, push, mv) in [
        (ann, ben, ("A", "B"), "e2-e4"),
        (ben, cat, ("B", "C"), "e2-e4"),
        (cat, ann, ("C", "A"), "d2-d4"),
    ] {
        let t = fake.slash(
            user,
            thread,
            "push",
            json!([text("bottom", push.0), text("top", push.1)]),
            &[],
        );
        accepted(&fake.answer(&t).await, "push");
        let t = fake.slash(user, thread, "move", json!([text("notation", mv)]), &[]);
        let answer = fake.answer(&t).await;
        let r = accepted(&answer, mv);
        assert!(r.contains(mv) && r.contains("part 3"), "{r}");
        assert_eq!(message(&answer).files, ["board.png"], "{answer:?}");
        if user.id == cat.id {
            break;
        }
        let mark = fake.mark();
        let t = fake.slash(user, thread, "done", json!([]), &[]);
        accepted(&fake.answer(&t).await, "done");
        assert_eq!(fake.notified_since(thread, mark).await, ids(&[next]));
    }

    // A refusal is private.
    let t = fake.slash(
        ann,
        thread,
        "push",
        json!([text("bottom", "A"), text("top", "B")]),
        &[],
    );
    let r = refused(&fake.answer(&t).await, "out of turn");
    assert!(r.contains("turn, not yours"), "{r}");

    // cat proposes; the answer carries the vote buttons; the others are asked to vote.
    let mark = fake.mark();
    let t = fake.slash(
        cat,
        thread,
        "propose",
        json!([text("text", "Bishops may wear mitres.")]),
        &[],
    );
    let answer = fake.answer(&t).await;
    let r = accepted(&answer, "propose");
    assert!(r.contains("proposal 1"), "{r}");
    // The buttons come in a message of their own (editable for as long as the vote lasts).
    let msg = vote_message(&fake, thread, 1).await;
    assert_eq!(msg.buttons.len(), 2, "{msg:?}");
    let yes = msg.buttons[0].clone();
    let no = msg.buttons[1].clone();
    assert!(
        yes.ends_with("choice:for") && no.ends_with("choice:against"),
        "{yes} {no}"
    );
    assert_eq!(fake.notified_since(thread, mark).await, ids(&[ann, ben]));
    // Votes through the buttons: ann for, ben against, cat for: adopted at once.
    let t = fake.press(ann, &msg, &yes);
    let r = accepted(&fake.answer(&t).await, "ann's vote");
    assert!(r.contains("votes for proposal 1"), "{r}");
    let t = fake.press(ann, &msg, &no);
    let r = refused(&fake.answer(&t).await, "a second vote");
    assert!(r.contains("already"), "{r}");
    let t = fake.press(ben, &msg, &no);
    accepted(&fake.answer(&t).await, "ben's vote");
    let t = fake.press(cat, &msg, &yes);
    let r = accepted(&fake.answer(&t).await, "cat's vote");
    assert!(r.contains("Proposal 1 is adopted (2 for, 1 against"), "{r}");
    assert!(r.contains("Turn: army 1"), "{r}");
    // Closed early (everyone voted): the buttons leave their message; a stale press is
    // refused with the reason.
    buttons_gone(&fake, &msg).await;
    let t = fake.press(ben, &msg, &yes);
    let r = refused(&fake.answer(&t).await, "a press after the close");
    assert!(r.contains("the vote on proposal 1 is closed"), "{r}");

    // A proposal taken back: its buttons go too.
    // (`setting` is a choice, sent by its index: vote_limit is the third.)
    let t = fake.slash(
        &org,
        thread,
        "set",
        json!([int("setting", 2), text("value", "2s")]),
        &[],
    );
    accepted(&fake.answer(&t).await, "set vote_limit");
    let t = fake.slash(
        ann,
        thread,
        "push",
        json!([text("bottom", "A"), text("top", "B")]),
        &[],
    );
    accepted(&fake.answer(&t).await, "push");
    let t = fake.slash(ann, thread, "move", json!([text("notation", "d2-d4")]), &[]);
    accepted(&fake.answer(&t).await, "d2-d4");
    let propose =
        |text_: &str| fake.slash(ann, thread, "propose", json!([text("text", text_)]), &[]);
    let t = propose("Rooks may roll.");
    accepted(&fake.answer(&t).await, "proposal 2");
    let second = vote_message(&fake, thread, 2).await;
    let t = fake.slash(ann, thread, "takeback", json!([]), &[]);
    accepted(&fake.answer(&t).await, "takeback of the proposal");
    buttons_gone(&fake, &second).await;
    let t = fake.press(cat, &second, &second.buttons[0]);
    let r = refused(&fake.answer(&t).await, "a press after the takeback");
    assert!(r.contains("no proposal 2"), "{r}");

    // A vote that runs out (2 s, nobody votes: defeated): the ticker's post takes them off.
    let t = propose("Rooks may roll twice.");
    accepted(&fake.answer(&t).await, "proposal 2 again");
    let third = fake
        .wait("the new vote's buttons", 10, |i| {
            i.public(thread)
                .into_iter()
                .rev()
                .find(|m| m.content.starts_with("Vote on proposal 2") && !m.buttons.is_empty())
                .filter(|m| m.id != second.id)
                .map(|m| (*m).clone())
        })
        .await;
    fake.wait("the vote's time-out", 15, |i| {
        i.public(thread)
            .into_iter()
            .find(|m| m.content.contains("Proposal 2 is defeated"))
            .map(|_| ())
    })
    .await;
    buttons_gone(&fake, &third).await;

    let t = fake.slash(
        ann,
        thread,
        "rules",
        json!([json!({"name": "number", "type": 4, "value": 218})]),
        &[],
    );
    let answer = fake.answer(&t).await;
    let rule = message(&answer);
    assert!(rule.ephemeral, "the ruleset is shown to the asker only");
    assert!(rule.content.contains("Bishops may wear mitres"), "{rule:?}");

    assert!(pictures(&fake) >= 3, "every move's picture decodes");
    let errors = fake.lock().errors.clone();
    assert!(errors.is_empty(), "fake Discord saw: {errors:#?}");
    drop(bot);
}

/// The message carrying proposal `n`'s vote buttons.
async fn vote_message(fake: &Fake, thread: u64, n: u32) -> super::fake::Msg {
    let head = format!("Vote on proposal {n}");
    fake.wait("the vote buttons", 10, |i| {
        i.public(thread)
            .into_iter()
            .rev()
            .find(|m| m.content.starts_with(&head) && !m.buttons.is_empty())
            .map(|m| (*m).clone())
    })
    .await
}

/// Waits until a vote message has lost its buttons and says the vote is closed.
async fn buttons_gone(fake: &Fake, msg: &super::fake::Msg) {
    let id = msg.id;
    let now = fake
        .wait("the closed vote's buttons removed", 15, |i| {
            i.messages
                .iter()
                .find(|m| m.id == id && m.buttons.is_empty())
                .cloned()
        })
        .await;
    assert!(now.content.contains("closed"), "{now:?}");
}
