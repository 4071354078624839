//! Chex through the fake Discord (issue 18): `/chex new` opens a thread with a pinned status
//! and the seed's hash, `/draw` and `/place` with the picture attached and the next player
//! notified, a private refusal (out of turn, an older board's `turn:`), a move, and the
//! pictures decoded.

use serde_json::{json, Value};

use super::fake::{Fake, User};
use super::{accepted, connected, message, refused, scratch, seats_from, text, Bot};

fn user_option(name: &str, u: &User) -> Value {
    json!({"name": name, "type": 6, "value": u.id.to_string()})
}

fn int(name: &str, v: u64) -> Value {
    json!({"name": name, "type": 4, "value": v})
}

/// Every PNG upload decodes as a phone-sized picture.
fn chex_pictures(fake: &Fake) -> usize {
    let uploads = fake.lock().uploads.clone();
    let mut n = 0;
    for (name, bytes) in uploads.iter().filter(|(n, _)| n.ends_with(".png")) {
        let img = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
            .unwrap_or_else(|e| panic!("{name} does not decode: {e}"));
        assert!(
            img.width() == 720 && (300..=1400).contains(&img.height()),
            "{name}: {}x{}",
            img.width(),
            img.height()
        );
        n += 1;
    }
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chex_game_through_discord() {
    let fake = Fake::start().await;
    let dir = scratch("bot-chex");
    let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
    let bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    let (p, org) = seats_from(700);
    let [ann, ben, ..] = &p;
    let ids = |us: &[&User]| -> Vec<String> { us.iter().map(|u| u.id.to_string()).collect() };

    // Creation: a thread of its own with the seed's hash, both players notified, a pinned
    // status.
    let mark = fake.mark();
    let options = json!([
        user_option("white", ann),
        user_option("black", ben),
        int("seed", 7)
    ]);
    let t = fake.slash(&org, super::CHANNEL, "chex new", options, &[ann, ben]);
    let r = accepted(&fake.answer(&t).await, "chex new");
    assert!(r.contains("Game created in"), "{r}");
    let thread = fake.lock().threads.last().expect("a thread").0;
    let opened = fake
        .wait("the game's first messages", 10, |i| {
            let p = i.public(thread);
            (p.len() >= 3).then(|| p.iter().map(|m| (*m).clone()).collect::<Vec<_>>())
        })
        .await;
    assert!(opened[0].content.contains("Chex created by"));
    assert!(opened[0]
        .content
        .contains("7902699be42c8a8e46fbbb4501726517e86b22c56a189f7625a6da49081b2451"));
    assert!(opened
        .iter()
        .any(|m| m.pinned && m.content.contains("Game status")));
    assert_eq!(fake.notified_since(thread, mark).await, ids(&[ann, ben]));

    // White's first draw is placed by itself; Black draws and places.
    for (user, next, name, options, want) in [
        (ann, ben, "draw", json!([]), "P@b2"),
        (ben, ben, "draw", json!([]), "draws: Rook"),
        (
            ben,
            ann,
            "place",
            json!([text("square", "c3"), int("turn", 2)]),
            "R@c3",
        ),
    ] {
        let mark = fake.mark();
        let t = fake.slash(user, thread, name, options, &[]);
        let answer = fake.answer(&t).await;
        let r = accepted(&answer, name);
        assert!(r.contains(want), "{r}");
        assert_eq!(message(&answer).files, ["board.png"], "{answer:?}");
        let notified = fake.notified_since(thread, mark).await;
        if next.id != user.id {
            assert_eq!(notified, ids(&[next]), "after {want}");
        } else {
            assert!(
                notified.is_empty(),
                "nobody is notified of their own turn going on"
            );
        }
    }

    // Refusals are private: out of turn, and a square named on an older board.
    let mark = fake.mark();
    let t = fake.slash(ben, thread, "draw", json!([]), &[]);
    let r = refused(&fake.answer(&t).await, "out of turn");
    assert!(r.contains("turn"), "{r}");
    let t = fake.slash(
        ann,
        thread,
        "move",
        json!([text("notation", "b2-b3"), int("turn", 2)]),
        &[],
    );
    let r = refused(&fake.answer(&t).await, "an older board");
    assert!(
        r.contains("this refers to board #2; the current board is #3"),
        "{r}"
    );
    assert!(fake.notified_since(thread, mark).await.is_empty());

    // A move on the current board.
    let t = fake.slash(
        ann,
        thread,
        "move",
        json!([text("notation", "b2-b3"), int("turn", 3)]),
        &[],
    );
    let answer = fake.answer(&t).await;
    let r = accepted(&answer, "b2-b3");
    assert!(r.contains("b2-b3"), "{r}");
    assert_eq!(message(&answer).files, ["board.png"]);

    // A takeback reposts the board: the move is undone, the picture attached.
    let t = fake.slash(ann, thread, "takeback", json!([]), &[]);
    let answer = fake.answer(&t).await;
    let r = accepted(&answer, "takeback");
    assert!(r.contains("takes back #4"), "{r}");
    assert_eq!(message(&answer).files, ["board.png"]);

    // The organiser resigns for nobody without a move limit; the player resigns.
    let t = fake.slash(
        &org,
        thread,
        "chex resign",
        json!([user_option("player", ben)]),
        &[ben],
    );
    refused(&fake.answer(&t).await, "no move limit");
    let t = fake.slash(ben, thread, "resign", json!([]), &[]);
    let asked = message(&fake.answer(&t).await).clone();
    let t = fake.press(ben, &asked, &asked.buttons[0]);
    let r = accepted(&fake.answer(&t).await, "resign");
    assert!(r.contains("The seed was 7"), "{r}");

    assert!(chex_pictures(&fake) >= 5, "every action's picture decodes");
    drop(bot);
}
