//! Substitutes on Discord (issue 42): `/substitute player:@old by:@new` in an Ultimate Chess
//! game. The organiser's answer is public; exactly the new player (whom the game now waits
//! on) and the old one are pinged, the organiser not; a refused hand-over is private and
//! pings nobody; then the seat's moves are the new player's, and the old one is refused.

use serde_json::{json, Value};

use super::fake::{Fake, User};
use super::{
    accepted, connected, ids, message, move_as, player, refused, scratch, seats_from, sorted, Bot,
};

fn user_option(name: &str, u: &User) -> Value {
    json!({"name": name, "type": 6, "value": u.id.to_string()})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_substitute_is_pinged_with_what_waits_on_them_and_the_old_player_told() {
    let fake = Fake::start().await;
    let dir = scratch("bot-substitute");
    let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
    let bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    let (p, org) = seats_from(1800);
    let [ann, ben, cat, dan, eve, _] = &p;
    // A member of the server who does not play in the game.
    let zed = player(1807, "zed");
    let mention = |u: &User| format!("<@{}>", u.id);

    let options = json!([
        user_option("silver", ann),
        user_option("red", ben),
        user_option("black", cat),
        user_option("green", dan),
    ]);
    let t = fake.slash(
        &org,
        super::CHANNEL,
        "ultimate new",
        options,
        &[ann, ben, cat, dan],
    );
    accepted(&fake.answer(&t).await, "ultimate new");
    let thread = fake.lock().threads.last().expect("a thread").0;

    // Silver moves: Red (ben) is on turn.
    let t = move_as(&fake, ann, thread, "e2-e5");
    accepted(&fake.answer(&t).await, "Silver e2-e5");
    fake.settle().await;

    // Refused hand-overs are private and ping nobody: by a member who is no organiser, and
    // to someone already seated.
    let substitute = |by: &User, old: &User, new: &User| {
        fake.slash(
            by,
            thread,
            "substitute",
            json!([user_option("player", old), user_option("by", new)]),
            &[old, new],
        )
    };
    let mark = fake.mark();
    let t = substitute(eve, ben, &zed);
    let r = refused(&fake.answer(&t).await, "a substitution by a non-organiser");
    assert!(r.contains("only the organiser"), "{r}");
    let t = substitute(&org, ben, cat);
    let r = refused(&fake.answer(&t).await, "a substitute already seated");
    assert!(r.contains("already plays in this game"), "{r}");
    assert!(
        fake.notified_since(thread, mark).await.is_empty(),
        "a refused substitution pings nobody"
    );

    // The organiser hands Red's seat to zed: a public answer; then zed, whom the game now
    // waits on, and ben, told he no longer plays, are pinged, once each; the organiser not.
    let mark = fake.mark();
    let t = substitute(&org, ben, &zed);
    let answer = fake.answer(&t).await;
    let r = accepted(&answer, "the substitution");
    assert!(
        r.contains("plays") && (r.contains(&mention(ben)) || r.contains(ben.name)),
        "{r}"
    );
    let notified = fake.notified_since(thread, mark).await;
    assert_eq!(
        sorted(notified.clone()),
        sorted(ids(&[&zed, ben])),
        "the new and the old player, once each: {notified:?}"
    );
    assert!(!notified.contains(&org.id.to_string()), "{notified:?}");
    let (to_zed, to_ben) = {
        let inner = fake.lock();
        let pinging = |u: &User| {
            let pinged: Vec<String> = inner
                .public(thread)
                .into_iter()
                .filter(|m| m.notified.contains(&u.id.to_string()))
                .map(|m| m.content.clone())
                .collect();
            pinged.last().cloned().unwrap_or_default()
        };
        (pinging(&zed), pinging(ben))
    };
    assert!(
        to_zed.contains(&mention(&zed)) && to_zed.contains("it waits on you"),
        "{to_zed}"
    );
    assert!(
        to_ben.contains(&mention(ben)) && to_ben.contains("plays your seat"),
        "{to_ben}"
    );

    // Red's move is zed's now: ben is refused privately, zed's move is played and pings
    // Black (cat), the next to move.
    let mark = fake.mark();
    let t = move_as(&fake, ben, thread, "b5-d5");
    let r = refused(&fake.answer(&t).await, "the old player's move");
    assert!(r.contains("not seated"), "{r}");
    assert!(fake.notified_since(thread, mark).await.is_empty());
    let t = move_as(&fake, &zed, thread, "b5-d5");
    let answer = fake.answer(&t).await;
    let r = accepted(&answer, "the substitute's move");
    assert!(r.contains("b5-d5"), "{r}");
    assert_eq!(message(&answer).files, ["board.png"], "{answer:?}");
    assert_eq!(fake.notified_since(thread, mark).await, ids(&[cat]));

    let errors = fake.lock().errors.clone();
    assert!(errors.is_empty(), "fake Discord saw: {errors:#?}");
    drop(bot);
}
