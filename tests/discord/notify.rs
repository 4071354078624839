//! Who is notified, by Discord's rule as the fake models it (a newly created public message
//! that mentions a user its allowed mentions allow; never an edit or a deferral's completion):
//! after each action of a game, exactly whoever must act next, once; and moments written as
//! Discord timestamps.

use serde_json::{json, Value};

use super::fake::{Fake, User, MANAGE_MESSAGES, MEMBER};
use super::{
    accepted, connected, drafted_with, ids, int, message, pick, refused, scratch, seats_from,
    sorted, text, timestamps, unix_now, Bot, CHANNEL,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whoever_must_act_is_notified_once_and_nobody_else() {
    let fake = Fake::start().await;
    let dir = scratch("bot-notify");
    let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
    let bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    let (p, org) = seats_from(300);
    let [a, b, c, d, e, f] = &p;
    let mention = |u: &User| format!("<@{}>", u.id);

    // A new game: its six players, in one message; f (team 2) makes the first pick (seed 1).
    let mark = fake.mark();
    let teams = json!([
        text(
            "team1",
            &format!("{} {} {}", mention(a), mention(b), mention(c))
        ),
        text(
            "team2",
            &format!("{} {} {}", mention(d), mention(e), mention(f))
        ),
        int("seed", 1),
        text("move_limit", "6m"),
    ]);
    let known = fake.lock().threads.len();
    let t = fake.slash(&org, CHANNEL, "kfb new", teams, &[]);
    accepted(&fake.answer(&t).await, "kfb new");
    let thread = fake.lock().threads[known].0;
    assert_eq!(
        fake.notified_since(thread, mark).await,
        ids(&[a, b, c, d, e, f]),
        "a new game notifies its six players, once"
    );
    assert!(fake.lock().notified_since(CHANNEL, mark).is_empty());

    // The draft: each pick notifies the players of the team on turn who may pick; a refused
    // pick nobody; the last pick the players who move first (but not the picker).
    let mark = fake.mark();
    let t = fake.slash(a, thread, "pick", pick(0, 0, 0), &[]);
    refused(&fake.answer(&t).await, "out-of-turn pick");
    assert!(
        fake.notified_since(thread, mark).await.is_empty(),
        "a refusal notifies nobody"
    );
    let draft: [(&User, Value, Vec<&User>); 6] = [
        (f, pick(1, 0, 0), vec![a, b, c]),
        (a, pick(0, 0, 0), vec![d, e]),
        (e, pick(0, 2, 3), vec![b, c]),
        (b, pick(1, 1, 2), vec![d]),
        (d, pick(1, 1, 1), vec![c]),
        // c moves first on board 2, but picked last: a (board 1) and e (board 3) are told.
        (c, pick(0, 2, 4), vec![a, e]),
    ];
    for (user, choice, next) in draft {
        let mark = fake.mark();
        let t = fake.slash(user, thread, "pick", choice, &[]);
        let answer = fake.answer(&t).await;
        accepted(&answer, "pick");
        assert_eq!(
            fake.notified_since(thread, mark).await,
            ids(&next),
            "after {}'s pick",
            user.name
        );
    }
    let first_moves = fake
        .lock()
        .public(thread)
        .last()
        .map(|m| m.content.clone())
        .unwrap();
    assert!(
        first_moves.contains(&format!(
            "{}: the draft is complete; you move first on board 1 (FIDE vs Clobberers)",
            mention(a)
        )),
        "{first_moves}"
    );

    // Moves (tests/scripts/kings.txt): each notifies the opponent on that board, once; the
    // deferred completion with the picture and the pinned status edit notify nobody.
    let play = |user: &User, notation: &str| {
        fake.slash(
            user,
            thread,
            "move",
            json!([text("notation", notation)]),
            &[],
        )
    };
    let moves: Vec<(&User, &str, Vec<&User>)> = vec![
        (a, "e2-e4", vec![d]),
        (d, "f7-f6", vec![a]),
        (a, "Qd1-h5", vec![d]),
        (d, "g7-g5", vec![a]),
        // d's king is taken: board 1 is frozen, and nobody on d's team holds a lightgreen king.
        (a, "Qh5xe8", vec![]),
        (e, "Chd1-e3", vec![b]),
        (b, "a7-a6", vec![e]),
        (e, "Che3-f5", vec![b]),
        (b, "a6-a5", vec![e]),
        (e, "Chf5xg7", vec![b]),
        (b, "a5-a4", vec![e]),
        // b's king is taken: a holds a lightgreen king and must give it to b (e, who holds
        // one for d, is told nothing of their own action).
        (e, "Chg7xe8", vec![a]),
    ];
    let mut status_edits = 0;
    for (user, notation, next) in moves {
        let mark = fake.mark();
        let t = play(user, notation);
        let answer = fake.answer(&t).await;
        let r = accepted(&answer, notation);
        assert!(r.contains(notation), "{r}");
        assert_eq!(answer.first, 5, "a move is deferred");
        assert!(
            message(&answer).notified.is_empty(),
            "the deferred completion notifies nobody"
        );
        assert_eq!(
            fake.notified_since(thread, mark).await,
            ids(&next),
            "after {}'s {notation}",
            user.name
        );
        let status = fake
            .lock()
            .public(thread)
            .into_iter()
            .find(|m| m.pinned)
            .cloned()
            .unwrap();
        assert!(status.edits > status_edits, "the status follows the game");
        status_edits = status.edits;
        assert!(
            status.notified.is_empty() && status.pings.is_empty(),
            "{status:?}"
        );
    }

    // A King to give: e gives the lightgreen king to d, who must drop it; the drop frees a.
    let mark = fake.mark();
    let give = json!([
        text("piece", "K"),
        json!({"name": "to", "type": 6, "value": d.id.to_string()})
    ]);
    let t = fake.slash(e, thread, "give", give, &[d]);
    accepted(&fake.answer(&t).await, "give");
    assert_eq!(fake.notified_since(thread, mark).await, ids(&[d]));
    let drop_king = fake
        .lock()
        .public(thread)
        .last()
        .map(|m| m.content.clone())
        .unwrap();
    assert!(
        drop_king.starts_with(&format!(
            "{}: drop your lightgreen king on board 1",
            mention(d)
        )),
        "{drop_king}"
    );
    let mark = fake.mark();
    let t = play(d, "K@g7");
    accepted(&fake.answer(&t).await, "K@g7");
    assert_eq!(fake.notified_since(thread, mark).await, ids(&[a]));
    let your_move = fake
        .lock()
        .public(thread)
        .last()
        .map(|m| m.content.clone())
        .unwrap();
    assert_eq!(
        your_move,
        format!("{}: your move on board 1 (FIDE vs Clobberers)", mention(a))
    );

    // Refused commands notify nobody: a frozen board, a locked player.
    let mark = fake.mark();
    let t = play(b, "a4-a3");
    let r = refused(&fake.answer(&t).await, "a move on a frozen board");
    assert!(r.contains("frozen"), "{r}");
    let moved_at = unix_now();
    let t = play(d, "h7-h6");
    let r = refused(&fake.answer(&t).await, "a locked player");
    assert!(fake.notified_since(thread, mark).await.is_empty());

    // The move limit, on Discord: when d may move again, as timestamps (relative and full),
    // the moment d's drop plus six minutes.
    let relative = timestamps(&r, 'R');
    let full = timestamps(&r, 'f');
    assert_eq!(relative.len(), 1, "{r}");
    assert_eq!(relative, full, "{r}");
    let until = relative[0];
    assert!(
        until + 30 >= moved_at + 360 && until <= unix_now() + 360,
        "{r} (moved at about {moved_at})"
    );
    assert!(!r.contains("UTC"), "{r}");
    // The lock expiry in the pinned status too.
    let status = fake
        .lock()
        .public(thread)
        .into_iter()
        .find(|m| m.pinned)
        .cloned()
        .unwrap();
    let d_line = status
        .content
        .lines()
        .find(|l| l.starts_with(&mention(d)))
        .unwrap_or_default()
        .to_string();
    assert!(
        d_line.contains(&format!("locked until <t:{until}:f> (<t:{until}:R>)")),
        "{}",
        status.content
    );

    // A revert (confirmed with the button): the game's players, once each, the moderator not.
    let modr = User {
        id: 100_000_000_000_000_311,
        name: "mod",
        permissions: MEMBER | MANAGE_MESSAGES,
        roles: &[],
    };
    let mark = fake.mark();
    let revert = json!([int("to", 20), text("reason", "a test")]);
    let t = fake.slash(&modr, thread, "revert", revert, &[]);
    let preview = message(&fake.answer(&t).await).clone();
    assert!(preview.ephemeral);
    let deadline = timestamps(&preview.content, 'R');
    assert_eq!(
        deadline.len(),
        1,
        "the confirmation's deadline: {}",
        preview.content
    );
    assert!(fake.notified_since(thread, mark).await.is_empty());
    let t = fake.press(&modr, &preview, &preview.buttons[0]);
    let r = accepted(&fake.answer(&t).await, "the confirmed revert");
    assert!(r.contains("reverted"), "{r}");
    assert_eq!(
        sorted(fake.notified_since(thread, mark).await),
        sorted(ids(&[a, b, c, d, e, f])),
        "a revert notifies the game's players, once each"
    );

    // A lock expiry, in a game with a two-second move limit: the player it names, once.
    let (q, org2) = seats_from(320);
    let fast = drafted_with(&fake, &q, &org2, "2s").await;
    fake.settle().await;
    let mark = fake.mark();
    let t = fake.slash(&q[0], fast, "move", json!([text("notation", "e2-e4")]), &[]);
    accepted(&fake.answer(&t).await, "e2-e4");
    fake.wait("the lock expiry", 15, |i| {
        i.public(fast)
            .into_iter()
            .find(|m| m.content.contains("your lock has expired"))
            .map(|_| ())
    })
    .await;
    assert_eq!(
        fake.notified_since(fast, mark).await,
        ids(&[&q[3], &q[0]]),
        "the move notifies d; the lock expiry a, once"
    );

    let errors = fake.lock().errors.clone();
    assert!(errors.is_empty(), "fake Discord saw: {errors:#?}");
    drop(bot);
}

/// Issue 41: a reminder is a new message notifying exactly the one user waited on; issue 53:
/// with no "not waiting on me" button when the game waits on that user alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_notifies_only_the_user_waited_on_and_its_button_stops_them() {
    let fake = Fake::start().await;
    let dir = scratch("bot-remind");
    let db = format!("sqlite://{}?mode=rwc", dir.join("bot.db").display());
    let _bot = Bot::start(&fake, dir, Some(db));
    connected(&fake, 1).await;
    let (p, org) = seats_from(1700);
    let [ann, ben, ..] = &p;
    let user = |name: &str, u: &User| json!({"name": name, "type": 6, "value": u.id.to_string()});
    let options = json!([
        user("white", ann),
        user("black", ben),
        int("seed", 7),
        text("remind", "2s")
    ]);
    let t = fake.slash(&org, CHANNEL, "chex new", options, &[ann, ben]);
    accepted(&fake.answer(&t).await, "chex new");
    let thread = fake.lock().threads.last().expect("a thread").0;
    let mark = fake.mark();
    // White (ann) is to draw: within a few seconds she is reminded, and nobody else.
    let reminder = fake
        .wait("a reminder", 20, |i| {
            i.public(thread)
                .into_iter()
                .find(|m| m.content.contains("reminder:"))
                .cloned()
        })
        .await;
    assert_eq!(reminder.notified, ids(&[ann]), "{}", reminder.content);
    assert_eq!(reminder.pings, ids(&[ann]));
    assert!(
        reminder.content.contains("Chex waits on you"),
        "{}",
        reminder.content
    );
    assert!(!timestamps(&reminder.content, 'R').is_empty());
    let notified: Vec<String> = fake
        .lock()
        .notified_since(thread, mark)
        .into_iter()
        .collect();
    assert!(
        notified.iter().all(|u| *u == ann.id.to_string()),
        "{notified:?}"
    );
    // The game waits on her alone: "not waiting on me" is not offered (issue 53), since a
    // press would silence the warning before her own deadline. (The button's own flow is
    // tested on the console, tests/scripts/notify.txt, in a game that waits on several.)
    assert!(reminder.buttons.is_empty(), "{:?}", reminder.buttons);
}
