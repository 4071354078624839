//! The commands that run in any channel, without a game (declared `Run::Anywhere`), through
//! the real bot: the caller's own list is answered privately at once, a rating privately, and
//! a leaderboard publicly (the players named in both as mentions), deferred while its picture is drawn, with the picture attached.

use serde_json::json;

use super::fake::Answer;
use super::{connected, int, message, scratch, seats_from, Bot, CHANNEL};

/// An answer given at once (not deferred), to the caller only, pinging nobody: its text.
fn private_at_once(a: &Answer, what: &str) -> String {
    let m = message(a);
    assert_eq!(a.first, 4, "{what}: answered at once, not deferred: {a:?}");
    assert!(m.ephemeral, "{what}: must be private: {m:?}");
    assert!(m.notified.is_empty(), "{what}: {m:?}");
    m.content.clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_without_a_game_are_answered_in_any_channel() {
    let fake = super::fake::Fake::start().await;
    let dir = scratch("bot-anywhere");
    let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
    let _bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    let (p, _) = seats_from(2100);
    let ann = &p[0];

    let t = fake.slash(ann, CHANNEL, "mygames", json!([]), &[]);
    let r = private_at_once(&fake.answer(&t).await, "/mygames");
    assert!(!r.starts_with("refused"), "{r}");

    let t = fake.slash(ann, CHANNEL, "rating", json!([]), &[]);
    let r = private_at_once(&fake.answer(&t).await, "/rating");
    // The player it names is shown as a mention (which pings nobody).
    assert_eq!(r, format!("<@{}>: no rated games yet", ann.id));

    // The first choice is KFB.
    let t = fake.slash(ann, CHANNEL, "leaderboard", json!([int("game", 0)]), &[]);
    let a = fake.answer(&t).await;
    let m = message(&a);
    assert_eq!(a.first, 5, "/leaderboard: deferred for its picture: {a:?}");
    assert!(!m.ephemeral, "/leaderboard: public: {m:?}");
    assert!(m.content.contains("leaderboard"), "{m:?}");
    assert_eq!(m.files, ["leaderboard.png"], "{m:?}");
}
