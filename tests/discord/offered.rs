//! The `/move` autocomplete offers what `/move` accepts (issue 24): with pawns of two armies
//! in hand, one suggestion per army, each accepted exactly as suggested; the bare drop is
//! refused with those texts. Off turn nothing is suggested.

use serde_json::json;

use super::fake::{Fake, User};
use super::{accepted, connected, drafted, refused, scratch, seats, text, Bot};

/// The autocomplete choices `user` gets for `typed` in `/move notation:`.
async fn suggestions(fake: &Fake, user: &User, thread: u64, typed: &str) -> Vec<String> {
    let t = fake.autocomplete(
        user,
        thread,
        "move",
        json!([{"name": "notation", "type": 3, "value": typed, "focused": true}]),
    );
    fake.answer(&t).await.choices
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn suggested_moves_are_accepted_as_suggested() {
    let fake = Fake::start().await;
    let dir = scratch("bot-offered");
    let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
    let bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    let (p, org) = seats();
    let thread = drafted(&fake, &p, &org).await;
    let [a, b, c, d, e, f] = &p;
    let play = |user: &User, notation: &str| {
        fake.slash(
            user,
            thread,
            "move",
            json!([text("notation", notation)]),
            &[],
        )
    };
    // tests/scripts/armies.txt: b ends up holding a Clobberers pawn and a Nutty pawn.
    for (user, m) in [
        (a, "e2-e4"),
        (d, "d7-d5"),
        (a, "e4xd5"),
        (e, "e2-e4"),
        (b, "d7-d5"),
        (e, "e4xd5"),
        (d, "e7-e6"),
        (a, "d2-d4"),
        (d, "P@e5"),
        (a, "d4xe5"),
    ] {
        let t = play(user, m);
        accepted(&fake.answer(&t).await, m);
    }

    // Off turn nothing is suggested, since nothing could be played now: a has just moved on
    // board 1 and is under the Kung Fu lock, while its opponent d is offered moves.
    assert_eq!(
        suggestions(&fake, a, thread, "").await,
        Vec::<String>::new()
    );
    assert!(!suggestions(&fake, d, thread, "").await.is_empty());

    // Typing the plain drop suggests it once per army.
    let choices = suggestions(&fake, b, thread, "P@e6").await;
    assert_eq!(choices, vec!["P@e6(clobberers)", "P@e6(nutty)"]);
    let all = suggestions(&fake, b, thread, "").await;
    assert!(
        !all.is_empty() && all.iter().all(|m| !m.starts_with("P@") || m.ends_with(')')),
        "{all:?}"
    );
    // The plain drop is refused with the texts to write.
    let t = play(b, "P@e6");
    let r = refused(&fake.answer(&t).await, "P@e6 with two armies in hand");
    assert!(r.contains("P@e6(clobberers) or P@e6(nutty)"), "{r}");
    // A suggestion is accepted as it is, and the reply names the army.
    let t = play(b, &choices[1]);
    let r = accepted(&fake.answer(&t).await, "the suggested drop");
    assert!(r.contains("#17") && r.contains("P@e6(nutty)"), "{r}");

    // Whatever is suggested is accepted as suggested, for players on the other boards too.
    for user in [c, f, e, c] {
        let choices = suggestions(&fake, user, thread, "").await;
        let Some(m) = choices.last() else {
            panic!("no suggestion for {}", user.name)
        };
        let t = play(user, m);
        let r = accepted(&fake.answer(&t).await, m);
        assert!(r.contains(m.as_str()), "{r}");
    }

    let inner = fake.lock();
    assert!(
        inner.errors.is_empty(),
        "fake Discord saw: {:#?}",
        inner.errors
    );
    drop(inner);
    drop(bot);
}
