//! `/mygames`: a player's games in play, those waiting on them first, most urgent first (the
//! earliest deadline, then the longest wait), then those waiting on others. It reads each
//! game's [`ThreadGame::waits`](super::ThreadGame::waits), the one account of who is waited
//! on that reminders share.

use super::{Reply, ThreadGame};
use crate::layer::attention::Attention;
use crate::layer::game::Wait;
use crate::layer::remind;
use crate::time::{stamp, Style, Timestamp};

/// One of the caller's games, as read for `/mygames`.
#[derive(Clone, Debug)]
pub struct MyGame {
    /// Its thread.
    pub thread: String,
    /// The game's name (`Party Chess`).
    pub title: &'static str,
    /// Whom it waits on now.
    pub waits: Vec<Wait>,
    /// Paused since (issue 41): it waits on nobody then.
    pub paused: Option<crate::time::Timestamp>,
    /// Its players away on vacation, with when they are back (issue 42).
    pub away: Vec<(String, crate::time::Timestamp)>,
}

/// A thread as a player sees it: a Discord channel mention for a Discord thread id, the
/// name itself on the console.
pub fn thread_ref(thread: &str) -> String {
    if !thread.is_empty() && thread.bytes().all(|b| b.is_ascii_digit()) {
        format!("<#{thread}>")
    } else {
        thread.to_string()
    }
}

/// `move on board 2 since <t:…:R>, deadline <t:…:R>`.
fn wait_text(w: &Wait, whose: Option<&str>) -> String {
    let mut s = match whose {
        Some(user) => format!("@{user}: {}", w.what),
        None => w.what.clone(),
    };
    s.push_str(&format!(" since {}", stamp(w.since, Style::Relative)));
    if let Some(d) = w.deadline {
        s.push_str(&format!(", deadline {}", stamp(d, Style::Relative)));
    }
    s
}

/// ` (bob away until <t:…:f>)`: who of the game is on vacation; the caller is `you`.
fn away_text(user: &str, away: &[(String, crate::time::Timestamp)]) -> String {
    if away.is_empty() {
        return String::new();
    }
    let v: Vec<String> = away
        .iter()
        .map(|(u, back)| {
            let who = if u == user {
                "you are".to_string()
            } else {
                format!("{u} is")
            };
            format!("{who} away until {}", stamp(*back, Style::Full))
        })
        .collect();
    format!(" ({})", v.join("; "))
}

/// `/status`'s line of whom the game waits on, read from its statement of waits (issue 53):
/// `Waiting on: @ann: play since 1h ago, deadline in 2d (then a default play)`, the waits in
/// the order of the log entries that began them; `None` when it waits on nobody.
pub fn waits_line(waits: &[Wait]) -> Option<String> {
    let mut waits: Vec<&Wait> = waits.iter().collect();
    waits.sort_by_key(|w| w.began);
    let v: Vec<String> = waits
        .iter()
        .map(|w| {
            let mut s = wait_text(w, Some(&w.user));
            if let (Some(_), Some(e)) = (w.deadline, w.effect) {
                s.push_str(&format!(" (then {})", e.text()));
            }
            s
        })
        .collect();
    (!v.is_empty()).then(|| format!("Waiting on: {}", v.join("; ")))
}

/// The reply: `ok:`, one line per game waiting on `user` in order of urgency, then
/// `waiting on others:` and the rest (ephemeral: it is the caller's own list).
pub fn my_games_reply(user: &str, games: Vec<MyGame>) -> Reply {
    let mut mine = Vec::new();
    let mut others = Vec::new();
    for g in games {
        let (on_me, on_others): (Vec<Wait>, Vec<Wait>) = if g.paused.is_some() {
            (Vec::new(), Vec::new())
        } else {
            g.waits.iter().cloned().partition(|w| w.user == user)
        };
        if on_me.is_empty() {
            others.push((g, on_others));
        } else {
            mine.push((g, on_me));
        }
    }
    let urgency = |waits: &[Wait]| {
        let deadline = waits.iter().filter_map(|w| w.deadline).min();
        let since = waits.iter().map(|w| w.since).min().unwrap_or(0);
        (deadline.is_none(), deadline, since)
    };
    mine.sort_by(|(a, wa), (b, wb)| {
        urgency(wa)
            .cmp(&urgency(wb))
            .then_with(|| a.thread.cmp(&b.thread))
    });
    others.sort_by(|(a, _), (b, _)| a.thread.cmp(&b.thread));
    if mine.is_empty() && others.is_empty() {
        return Reply {
            ephemeral: true,
            ..Reply::ok("you play in no game in progress")
        };
    }
    let mut lines = vec![format!(
        "{} of your {} games in progress wait on you",
        mine.len(),
        mine.len() + others.len()
    )];
    for (g, waits) in &mine {
        let what: Vec<String> = waits.iter().map(|w| wait_text(w, None)).collect();
        lines.push(format!(
            "{}: {}: {}{}",
            thread_ref(&g.thread),
            g.title,
            what.join("; "),
            away_text(user, &g.away)
        ));
    }
    if !others.is_empty() {
        lines.push("waiting on others:".to_string());
        for (g, waits) in &others {
            let what: Vec<String> = waits.iter().map(|w| wait_text(w, Some(&w.user))).collect();
            let what = if let Some(p) = g.paused {
                format!(
                    "paused since {} (a player's action or the organiser's /resume resumes it)",
                    crate::time::stamp(p, crate::time::Style::Relative)
                )
            } else if what.is_empty() {
                "nobody is asked to act now".to_string()
            } else {
                what.join("; ")
            };
            lines.push(format!(
                "{}: {}: {what}{}",
                thread_ref(&g.thread),
                g.title,
                away_text(user, &g.away)
            ));
        }
    }
    Reply {
        ok: Some(true),
        text: lines.join("\n"),
        ephemeral: true,
        ..Reply::default()
    }
}

/// A game the caller runs (organises, or officiates as its Chess-Umpire or a Referee), as read
/// for the second part of `/mygames`.
#[derive(Clone, Debug)]
pub struct RunGame {
    /// Its thread.
    pub thread: String,
    /// The game's name.
    pub title: &'static str,
    /// Whom it waits on now.
    pub waits: Vec<Wait>,
    /// Paused since.
    pub paused: Option<crate::time::Timestamp>,
    /// Timers that asked its keepers to act since the waits began (a move limit overrun),
    /// with when: what makes it overdue.
    pub overdue: Vec<(crate::time::Timestamp, String)>,
    /// Whether nobody has acted in it since it was created (it waits on a first pick or
    /// move).
    pub unstarted: bool,
}

/// The second part of `/mygames` for those who run games: `games you run:` and one line for
/// each that needs looking at (paused, overdue, or waiting on a first pick since it was
/// created), in the order of their threads; nothing when none does.
pub fn games_you_run(games: &[RunGame]) -> Vec<String> {
    let mut lines = Vec::new();
    for g in games {
        let who: Vec<String> = g
            .waits
            .iter()
            .map(|w| wait_text(w, Some(&w.user)))
            .collect();
        let what = if let Some(p) = g.paused {
            format!(
                "paused since {} (a player's action or the organiser's /resume resumes it)",
                stamp(p, Style::Relative)
            )
        } else if let Some((at, why)) = g.overdue.last() {
            format!("overdue since {}: {why}", stamp(*at, Style::Relative))
        } else if g.unstarted && !who.is_empty() {
            format!("waiting on a first pick or move: {}", who.join("; "))
        } else {
            continue;
        };
        lines.push(format!("{}: {}: {what}", thread_ref(&g.thread), g.title));
    }
    if !lines.is_empty() {
        lines.insert(0, "games you run:".to_string());
    }
    lines
}

/// Whether `user` plays `game` (the games `/mygames` lists first).
pub fn plays(game: &dyn ThreadGame, user: &str) -> bool {
    game.users().iter().any(|u| u == user)
}

/// Whether `user` runs `game`: organises it, or officiates as its Chess-Umpire or a Referee.
pub fn runs(game: &dyn ThreadGame, user: &str) -> bool {
    game.organiser().as_deref() == Some(user) || game.officials().iter().any(|o| o == user)
}

/// One of the caller's games as `/mygames` reads it at `now`: whom it waits on, since when
/// the layer paused it, and who of it is away (`server`: the Discord server it is on).
pub fn my_game(
    thread: &str,
    game: &dyn ThreadGame,
    server: Option<&str>,
    att: &Attention,
    now: Timestamp,
) -> MyGame {
    MyGame {
        thread: thread.to_string(),
        title: game.kind().title,
        waits: game.waits(now),
        paused: remind::paused(game, thread, att, now),
        away: att.away(&game.users(), server).away_at(now),
    }
}

/// A game `user` runs as `/mygames` reads it at `now`: whom it waits on, the timers since
/// those waits began that asked `user` to act (a limit overrun), whether it is paused and
/// whether nobody has acted in it yet.
pub fn run_game(
    thread: &str,
    game: &dyn ThreadGame,
    att: &Attention,
    user: &str,
    now: Timestamp,
) -> RunGame {
    let mention = format!("@{user}");
    let waits = game.waits(now);
    let since = waits.iter().map(|w| w.since).min().unwrap_or(now);
    // A timer since the waits began that asked the caller to act: a limit overrun.
    let overdue = game
        .due(since, now)
        .into_iter()
        .filter(|d| d.notify.users().iter().any(|u| u == user))
        .filter_map(|d| {
            let text = d.notify.text();
            let line = text.lines().find(|l| {
                l.split_once(": ")
                    .is_some_and(|(who, _)| who.split(' ').any(|w| w == mention))
            })?;
            Some((d.at, line.split_once(": ")?.1.to_string()))
        })
        .collect();
    RunGame {
        thread: thread.to_string(),
        title: game.kind().title,
        paused: remind::paused(game, thread, att, now),
        overdue,
        unstarted: game.log_len() <= 1,
        waits,
    }
}

/// `reply` (the caller's games) with the second part for those who run games
/// ([`games_you_run`]) after it, when there is one.
pub fn with_games_you_run(mut reply: Reply, run: &[RunGame]) -> Reply {
    let lines = games_you_run(run);
    if !lines.is_empty() {
        reply.text = format!("{}\n{}", reply.text, lines.join("\n"));
    }
    reply
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait(user: &str, since: u64, deadline: Option<u64>) -> Wait {
        Wait {
            user: user.into(),
            what: "move".into(),
            since,
            began: 0,
            deadline,
            effect: None,
        }
    }

    #[test]
    fn the_most_urgent_come_first_then_the_others() {
        let game = |thread: &str, waits| MyGame {
            thread: thread.into(),
            title: "Chex",
            waits,
            paused: None,
            away: Vec::new(),
        };
        let r = my_games_reply(
            "ann",
            vec![
                game("a", vec![wait("ann", 10, None)]),
                game("b", vec![wait("ann", 50, Some(500))]),
                game("c", vec![wait("bob", 5, None)]),
                game("d", vec![wait("ann", 5, None)]),
                game("e", vec![wait("ann", 60, Some(400))]),
            ],
        );
        let lines: Vec<&str> = r.text.lines().collect();
        assert!(lines[0].starts_with("4 of your 5"), "{}", r.text);
        let threads: Vec<&str> = lines[1..]
            .iter()
            .map(|l| l.split(':').next().unwrap())
            .collect();
        assert_eq!(threads, ["e", "b", "d", "a", "waiting on others", "c"]);
        assert!(
            lines[6].contains("@bob: move since <t:5:R>"),
            "{}",
            lines[6]
        );
        assert!(lines[1].contains("deadline <t:400:R>"), "{}", lines[1]);
        assert!(r.ephemeral);
        assert_eq!(thread_ref("123"), "<#123>");
    }
}
