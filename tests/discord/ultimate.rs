//! Ultimate Chess through the fake Discord (issue 17): `/ultimate new` opens a thread with a
//! pinned status, the four players move in turn with the picture attached, the player to move
//! is notified, a refusal is private, a command of another game is refused with the game's
//! name, and a checkmate from a position text ends the game.

use serde_json::{json, Value};

use super::fake::{Fake, User};
use super::{accepted, connected, message, refused, scratch, seats_from, text, Bot};

fn user_option(name: &str, u: &User) -> Value {
    json!({"name": name, "type": 6, "value": u.id.to_string()})
}

/// Every PNG upload decodes as a picture of the cross board (square-ish, phone-sized).
fn cross_pictures(fake: &Fake) -> usize {
    let uploads = fake.lock().uploads.clone();
    let mut n = 0;
    for (name, bytes) in uploads.iter().filter(|(n, _)| n.ends_with(".png")) {
        let img = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
            .unwrap_or_else(|e| panic!("{name} does not decode: {e}"));
        assert!(
            (800..=1400).contains(&img.width()) && (800..=1400).contains(&img.height()),
            "{name}: {}x{}",
            img.width(),
            img.height()
        );
        n += 1;
    }
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ultimate_game_through_discord() {
    let fake = Fake::start().await;
    let dir = scratch("bot-ultimate");
    let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
    let bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    let (p, org) = seats_from(600);
    let [ann, ben, cat, dan, ..] = &p;
    let ids = |us: &[&User]| -> Vec<String> { us.iter().map(|u| u.id.to_string()).collect() };

    // Creation: a thread of its own, everyone notified once, a pinned status.
    let mark = fake.mark();
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
    let r = accepted(&fake.answer(&t).await, "ultimate new");
    assert!(r.contains("Game created in"), "{r}");
    let thread = fake.lock().threads.last().expect("a thread").0;
    let opened = fake
        .wait("the game's first messages", 10, |i| {
            let p = i.public(thread);
            (p.len() >= 3).then(|| p.iter().map(|m| (*m).clone()).collect::<Vec<_>>())
        })
        .await;
    assert!(opened[0].content.contains("Ultimate Chess created by"));
    assert!(opened
        .iter()
        .any(|m| m.pinned && m.content.contains("Game status")));
    assert_eq!(
        fake.notified_since(thread, mark).await,
        ids(&[ann, ben, cat, dan]),
        "the four players are notified once"
    );

    // The four players move in turn; each move notifies the next player only.
    for (user, next, mv) in [
        (ann, ben, "e2-e5"),
        (ben, cat, "b5-d5"),
        (cat, dan, "f15-f13"),
        (dan, ann, "o12-m12"),
    ] {
        let mark = fake.mark();
        let t = fake.slash(user, thread, "move", json!([text("notation", mv)]), &[]);
        let answer = fake.answer(&t).await;
        let r = accepted(&answer, mv);
        assert!(r.contains(mv), "{r}");
        assert_eq!(message(&answer).files, ["board.png"], "{answer:?}");
        assert!(message(&answer).notified.is_empty(), "{answer:?}");
        assert_eq!(
            fake.notified_since(thread, mark).await,
            ids(&[next]),
            "after {mv}"
        );
    }

    // A refusal is private and notifies nobody; so is another game's command.
    let mark = fake.mark();
    let t = fake.slash(ben, thread, "move", json!([text("notation", "e2-e4")]), &[]);
    let r = refused(&fake.answer(&t).await, "out of turn");
    assert!(r.contains("turn"), "{r}");
    let t = fake.slash(ann, thread, "claim", json!([]), &[]);
    let r = refused(&fake.answer(&t).await, "a KFB command");
    assert!(
        r.contains("Kung Fu Bughouse command") && r.contains("Ultimate Chess"),
        "{r}"
    );
    assert!(fake.notified_since(thread, mark).await.is_empty());

    // A checkmate from a position text: Red and Green are out; Silver mates Black.
    let position = "**{K3}11**/**2{R1}9**/16/16/16/16/16/16/16/16/16/16/16/10{R1}5/**12**/**5{K1}6** 1 1:-,2:-,3:-,4:- 2,4 standard -";
    let options = json!([
        text(
            "players",
            &format!("<@{}> <@{}> <@{}> <@{}>", ann.id, ben.id, cat.id, dan.id)
        ),
        text("position", position),
    ]);
    let t = fake.slash(&org, super::CHANNEL, "ultimate new", options, &[]);
    accepted(&fake.answer(&t).await, "ultimate new from a position");
    let mate = fake.lock().threads.last().expect("a thread").0;
    assert_ne!(mate, thread);
    let t = fake.slash(ann, mate, "move", json!([text("notation", "Rk3-k16")]), &[]);
    let answer = fake.answer(&t).await;
    let r = accepted(&answer, "the mating move");
    assert!(r.contains("checkmated") && r.contains("wins"), "{r}");
    assert_eq!(message(&answer).files, ["board.png"]);
    let t = fake.slash(
        cat,
        mate,
        "move",
        json!([text("notation", "Kc16-d16")]),
        &[],
    );
    let r = refused(&fake.answer(&t).await, "a move after the end");
    assert!(r.contains("over"), "{r}");

    assert!(cross_pictures(&fake) >= 5, "every move's picture decodes");
    drop(bot);
}
