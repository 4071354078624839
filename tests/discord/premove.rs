//! Conditional moves on Discord (issue 43): a line is set privately; the reply it plays when
//! its condition is met is posted in the thread as a message of its own, marked `(premove)`;
//! then exactly the player who must answer it is pinged, by a new message, and the line's
//! author is pinged neither for the move that set it off nor for their own reply.

use serde_json::json;

use super::fake::{Fake, User};
use super::{accepted, connected, drafted, message, move_as, scratch, seats_from, text, Bot};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_premoved_reply_is_posted_and_pings_only_its_opponent() {
    let fake = Fake::start().await;
    let dir = scratch("bot-premove");
    let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
    let bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    let (p, org) = seats_from(400);
    // Seed 1 and the draft of routing.txt: a (FIDE) moves first on board 1 against d.
    let thread = drafted(&fake, &p, &org).await;
    let [a, _, _, d, _, _] = &p;
    let play = |user: &User, notation: &str| move_as(&fake, user, thread, notation);
    let t = play(a, "e2-e4");
    accepted(&fake.answer(&t).await, "a e2-e4");

    // The line: if d answers e7-e5, a plays Ng1-f3. Set privately, pinging nobody (once
    // the ping of a's move to d has gone out).
    fake.settle().await;
    let mark = fake.mark();
    let t = fake.slash(
        a,
        thread,
        "premove",
        json!([text("line", "e7-e5 Ng1-f3")]),
        &[],
    );
    let answer = fake.answer(&t).await;
    let set = message(&answer);
    assert!(set.ephemeral, "a line is set privately: {set:?}");
    assert!(
        set.content.contains("stored") && set.content.contains("Ng1-f3"),
        "{}",
        set.content
    );
    assert!(
        fake.notified_since(thread, mark).await.is_empty(),
        "setting a line pings nobody"
    );

    // d plays e7-e5: a's reply is played at once and posted in the thread.
    let before = fake.lock().messages.len();
    let mark = fake.mark();
    let t = play(d, "e7-e5");
    let r = accepted(&fake.answer(&t).await, "d e7-e5");
    assert!(r.contains("e7-e5") && !r.contains("(premove)"), "{r}");
    let notified = fake.notified_since(thread, mark).await;
    assert_eq!(
        notified,
        vec![d.id.to_string()],
        "exactly d, who must answer a's reply, is pinged, once; a is pinged for nothing"
    );
    let inner = fake.lock();
    let posts: Vec<_> = inner.messages[before..]
        .iter()
        .filter(|m| m.channel == thread && !m.ephemeral)
        .collect();
    let premoved = posts
        .iter()
        .position(|m| m.content.contains("(premove)"))
        .unwrap_or_else(|| panic!("no message with the premoved reply: {posts:#?}"));
    let reply = posts[premoved];
    assert!(
        reply.content.contains("Ng1-f3") && reply.content.contains("#9"),
        "{}",
        reply.content
    );
    assert!(
        reply.notified.is_empty(),
        "the premoved reply itself pings nobody: {reply:?}"
    );
    // The ping is a new message after the premoved reply.
    let pings: Vec<_> = posts.iter().filter(|m| !m.notified.is_empty()).collect();
    assert_eq!(pings.len(), 1, "one message pings: {posts:#?}");
    let ping = pings[0];
    assert_eq!(ping.notified, vec![d.id.to_string()], "{ping:?}");
    let ping_at = posts
        .iter()
        .position(|m| m.id == ping.id)
        .expect("the ping among the posts");
    assert!(
        ping_at > premoved,
        "d is pinged after the premoved reply is posted: {posts:#?}"
    );
    assert!(
        !ping.content.contains(&a.id.to_string()),
        "a is not named in the ping: {ping:?}"
    );
    assert!(inner.errors.is_empty(), "{:?}", inner.errors);
    drop(inner);
    drop(bot);
}
