//! Nomic Chess on the game layer (Nomic rules 6.11): `/nomic new`, `/push`, `/move`, `/done`,
//! `/take`, `/decline`, `/propose`, `/vote` (and its buttons), `/demote`, `/forfeit`,
//! `/judgment`, `/overrule`, `/rules`, and the Referees' `/pause`, `/resume`, `/judge`,
//! `/assign`, `/edit`, `/order`, `/set`, `/proposal void|fix`; plus the shared `/takeback`,
//! `/revert`, `/status`, `/moves` and `/export`.

use crate::games::nomic::{
    self, export, half_letter, parse_piece, Action, Edit, Game, Join, Local, Settings, ASYNC, LIVE,
};
use crate::games::parse_seed;
use crate::layer::game::{self, on_off, Asker, Due, GameKind, NewGame, PictureJob, ThreadGame};
use crate::layer::replay::{self as replay, Frames, ReplayJob, ReplayOptions};
use crate::layer::{mention, Caller, Command, Notify, Reply};

use crate::games::nomic::picture::{army_colour_name, render_nomic, HalfView, JoinView, NomicView};
use crate::time::{parse_duration, Timestamp};

/// Nomic Chess in the game layer.
pub static KIND: GameKind = GameKind {
    variant: "nomic",
    title: "Nomic Chess",
    group: "nomic",
    declared: super::commands::ENTRIES,
    create,
    load,
    import: |text| crate::layer::imported(export::import(text)),
    acts_on_leave: false,
};

fn users_of(list: &str) -> Vec<String> {
    list.split_whitespace()
        .map(mention)
        .filter(|u| !u.is_empty())
        .collect()
}

fn create(caller: &Caller<'_>, cmd: &Command, entropy: u64) -> Result<NewGame, String> {
    let Some(players) = cmd.opt("players") else {
        return Err("Nomic Chess needs players: /nomic new players:@a @b … referees:@r …".into());
    };
    let mut new = nomic::NewGame {
        players: users_of(players),
        ..nomic::NewGame::default()
    };
    let mut s = Settings {
        pace: crate::layer::pace::Pace::default(),
        seed: entropy,
        ..Settings::default()
    };
    if let Some(r) = cmd.opt("referees") {
        s.referees = users_of(r);
    }
    if let Some(p) = cmd.opt("pace") {
        let l = match p.trim().to_lowercase().as_str() {
            "live" => LIVE,
            "async" => ASYNC,
            _ => return Err("pace must be live or async".into()),
        };
        s.part1_limit = l;
        s.part3_limit = l;
        s.vote_limit = l;
    }
    let dur = |k: &str| -> Result<Option<u64>, String> {
        cmd.opt(k)
            .map(|v| parse_duration(v).map_err(|e| format!("{k}: {e}")))
            .transpose()
    };
    if let Some(d) = dur("part1_limit")? {
        s.part1_limit = d;
    }
    if let Some(d) = dur("part3_limit")? {
        s.part3_limit = d;
    }
    if let Some(d) = dur("vote_limit")? {
        s.vote_limit = d;
    }
    if let Some(m) = cmd.opt("proposal_max") {
        s.proposal_max = match m.trim().parse::<usize>() {
            Ok(v) if v > 0 => v,
            _ => return Err("proposal_max must be a number of characters".into()),
        };
    }
    if let Some(f) = cmd.opt("friendly_capture") {
        s.friendly_capture = on_off("friendly_capture", f)?;
    }
    if let Some(v) = cmd.opt("seed") {
        s.seed = parse_seed(v)?;
    }
    s.pace = game::pace_opt(cmd)?;
    new.settings = s;
    new.order = cmd.opt("order").map(users_of);
    new.position = cmd.opt("position").map(str::to_string);
    let game = Game::create(new, caller.user, caller.now).map_err(|e| e.to_string())?;
    let st = game.state();
    let seats: Vec<String> = game
        .users
        .iter()
        .enumerate()
        .map(|(i, u)| format!("{u} (half {}, army {})", half_letter(i), i + 1))
        .collect();
    let order: Vec<String> = st.pos.order.iter().map(|a| (a + 1).to_string()).collect();
    let text = format!(
        "Nomic Chess created by {}: {}; Referees: {}; Order: {}; seed {}\n{}\nThe ruleset is rules 100–217 of the starting ruleset: /rules lists them.",
        caller.user,
        seats.join(", "),
        st.settings.referees.join(", "),
        order.join(", "),
        st.settings.seed,
        game.whose_line(st)
    );
    let notify = notify_of(&game.asks(st))
        .map(|n| Notify::to(game.users.clone(), "you play in a new game of Nomic Chess").and(n));
    let ruleset = game.state().rules.all_text();
    Ok(NewGame {
        game: Box::new(game),
        reply: Reply {
            ok: Some(true),
            text,
            notify,
            attachments: vec![("ruleset.txt".into(), ruleset)],
            ..Reply::default()
        },
    })
}

game::loader!(load, |u, s: Settings, l, a| Game::from_log_away(u, s, l, a));

fn notify_of(asks: &[(String, String)]) -> Option<Notify> {
    Notify::each(asks.iter().cloned())
}

fn accepted(a: nomic::Accepted) -> Reply {
    let notify = notify_of(&a.notify);
    game::accepted(a.number, a.text, notify)
}

fn half(text: &str, key: &str) -> Result<usize, String> {
    let t = text.trim();
    let mut c = t.chars();
    match (c.next(), c.next()) {
        (Some(l), None) if l.is_ascii_alphabetic() => {
            Ok((l.to_ascii_uppercase() as u8 - b'A') as usize)
        }
        _ => Err(format!("{key}: name a half-board by its letter (A, B, …)")),
    }
}

fn square(cmd: &Command, key: &str) -> Result<Local, String> {
    let v = cmd
        .opt(key)
        .or(if key == "square" {
            cmd.positional
                .get(1)
                .or(cmd.positional.first())
                .map(String::as_str)
        } else {
            None
        })
        .ok_or_else(|| format!("missing {key}:<half>:<square> (like {key}:A:d1)"))?;
    Local::parse(v).ok_or_else(|| {
        format!("{key}: `{v}` is not a square like A:d1 (half letter, file a–h, local rank 1–4)")
    })
}

fn number(cmd: &Command, key: &str) -> Result<u32, String> {
    let v = cmd
        .opt(key)
        .or(cmd
            .positional
            .iter()
            .find(|w| w.parse::<u32>().is_ok())
            .map(String::as_str))
        .ok_or_else(|| format!("missing {key}:<n>"))?;
    v.trim()
        .trim_start_matches('#')
        .parse::<u32>()
        .map_err(|_| format!("{key}: `{v}` is not a number"))
}

fn halves_list(v: &str, n: usize) -> Result<Vec<bool>, String> {
    let mut out = vec![false; n];
    if v.trim() == "-" {
        return Ok(out);
    }
    for c in v.trim().chars() {
        let h = half(&c.to_string(), "halves")?;
        if h >= n {
            return Err(format!("there is no half {c}"));
        }
        out[h] = true;
    }
    Ok(out)
}

/// The action a command asks for, or `None` when the command is not Nomic Chess's.
fn action(game: &Game, cmd: &Command) -> Option<Result<Action, String>> {
    let n = game.users.len();
    let player = |v: &str| -> Result<usize, String> {
        let u = mention(v);
        game.player_of(&u)
            .ok_or_else(|| format!("{u} is not a player in this game"))
    };
    let army = |cmd: &Command| -> Result<usize, String> {
        let a = number(cmd, "army")? as usize;
        if (1..=n).contains(&a) {
            Ok(a - 1)
        } else {
            Err(format!("army must be from 1 to {n}"))
        }
    };
    let first = cmd.positional.first().map(String::as_str);
    Some((|| -> Result<Action, String> {
        Ok(match cmd.name.as_str() {
            "push" => {
                let bottom = cmd.opt("bottom").ok_or("missing bottom:<half> (like /push bottom:A top:B)")?;
                let top = cmd.opt("top").ok_or("missing top:<half> (like /push bottom:A top:B)")?;
                Action::Push {
                    join: Join {
                        bottom: half(bottom, "bottom")?,
                        top: half(top, "top")?,
                    },
                }
            }
            "move" => {
                if first == Some("push") {
                    let bottom = cmd.opt("bottom").ok_or("missing bottom:<half>")?;
                    let top = cmd.opt("top").ok_or("missing top:<half>")?;
                    return Ok(Action::Push {
                        join: Join {
                            bottom: half(bottom, "bottom")?,
                            top: half(top, "top")?,
                        },
                    });
                }
                let text = cmd
                    .opt("notation")
                    .map(String::from)
                    .or_else(|| (!cmd.positional.is_empty()).then(|| cmd.positional.join(" ")))
                    .ok_or("missing notation (like /move e2-e4, in J's coordinates)")?;
                // A push picked from the offered list (`push bottom:A top:B`).
                if let Some(c) = text
                    .starts_with("push ")
                    .then(|| Command::parse_plain(&format!("/{text}")))
                    .flatten()
                {
                    let bottom = c.opt("bottom").ok_or("missing bottom:<half>")?;
                    let top = c.opt("top").ok_or("missing top:<half>")?;
                    return Ok(Action::Push {
                        join: Join {
                            bottom: half(bottom, "bottom")?,
                            top: half(top, "top")?,
                        },
                    });
                }
                Action::Move { notation: text }
            }
            "nomic referee" => {
                let user = mention(cmd.opt("player").ok_or("missing player:@x (like /nomic referee add player:@x)")?);
                match first {
                    Some("add") => Action::Referee { add: true, user },
                    Some("remove") => Action::Referee { add: false, user },
                    _ => return Err("write /nomic referee add player:@x or /nomic referee remove player:@x".into()),
                }
            }
            "done" => Action::Done,
            "take" => Action::Take { army: army(cmd)? },
            "decline" => Action::Decline { army: army(cmd)? },
            "propose" => {
                let text = cmd
                    .opt("text")
                    .map(String::from)
                    .or_else(|| (!cmd.positional.is_empty()).then(|| cmd.positional.join(" ")))
                    .ok_or("missing text: /propose text:<rule-change>")?;
                let num = match cmd.opt("number") {
                    Some(v) => Some(v.trim().parse::<u32>().map_err(|_| "number: must be a rule number")?),
                    None => None,
                };
                let immutable = match cmd.opt("immutable") {
                    Some(v) => on_off("immutable", v)?,
                    None => false,
                };
                Action::Propose {
                    text,
                    number: num,
                    immutable,
                }
            }
            "vote" => {
                let proposal = number(cmd, "proposal")?;
                let c = cmd
                    .opt("choice")
                    .or(cmd.positional.iter().find(|w| w.parse::<u32>().is_err()).map(String::as_str))
                    .ok_or("missing choice:for|against")?;
                let choice = match c.trim().to_lowercase().as_str() {
                    "for" | "yes" | "aye" => true,
                    "against" | "no" | "nay" => false,
                    _ => return Err("choice must be for or against".into()),
                };
                Action::Vote { proposal, choice }
            }
            "demote" => Action::Demote {
                square: square(cmd, "square")?,
            },
            "forfeit" => Action::Forfeit,
            "judgment" => Action::Judgment {
                question: cmd
                    .opt("question")
                    .map(String::from)
                    .or_else(|| (!cmd.positional.is_empty()).then(|| cmd.positional.join(" ")))
                    .unwrap_or_default(),
                partisan: cmd.opt("partisan").map(users_of).unwrap_or_default(),
            },
            "judge" => Action::Judge {
                judgment: number(cmd, "judgment")?,
                text: cmd.opt("text").unwrap_or("").to_string(),
            },
            "overrule" => Action::Overrule {
                judgment: number(cmd, "judgment")?,
            },
            "pause" => Action::Pause,
            "resume" => Action::Resume,
            "assign" => Action::Assign {
                army: army(cmd)?,
                player: player(cmd.opt("to").ok_or("missing to:@player")?)?,
            },
            "order" => {
                let v = cmd.opt("set").or(first).ok_or("missing set:<armies> (like set:2,1,3)")?;
                let mut order = Vec::new();
                for t in v.split([',', ' ']).filter(|t| !t.is_empty()) {
                    match t.parse::<usize>() {
                        Ok(a) if (1..=n).contains(&a) => order.push(a - 1),
                        _ => return Err(format!("set: `{t}` is not an army from 1 to {n}")),
                    }
                }
                Action::Order { order }
            }
            "set" => {
                let (key, value) = cmd
                    .options
                    .first()
                    .ok_or("write /set <setting>:<value> (part1_limit, part3_limit, vote_limit, proposal_max, friendly_capture, pace)")?;
                Action::Set {
                    key: key.clone(),
                    value: value.trim().to_lowercase(),
                }
            }
            "proposal" => {
                let proposal = number(cmd, "proposal")?;
                match first {
                    Some("void") => Action::Void { proposal },
                    Some("fix") => Action::Fix {
                        proposal,
                        text: cmd.opt("text").ok_or("missing text:<fixed text>")?.to_string(),
                    },
                    _ => return Err("write /proposal void proposal:<n> or /proposal fix proposal:<n> text:<text>".into()),
                }
            }
            "edit" => Action::Edit(match first {
                Some("put") => {
                    let p = cmd.opt("piece").ok_or("missing piece:<letter><army> (like piece:Q1)")?;
                    let (kind, a) = parse_piece(p, n)
                        .ok_or_else(|| format!("piece: `{p}` is a letter K Q R B N P and an army from 1 to {n}"))?;
                    Edit::Put {
                        square: square(cmd, "square")?,
                        kind,
                        army: a,
                    }
                }
                Some("remove") => Edit::Remove {
                    square: square(cmd, "square")?,
                },
                Some("move") => Edit::Move {
                    from: square(cmd, "from")?,
                    to: square(cmd, "to")?,
                },
                Some("position") => Edit::Position {
                    text: cmd.opt("text").or(cmd.opt("position")).ok_or("missing text:<position text>")?.to_string(),
                },
                Some("clock") => match (cmd.opt("add"), cmd.opt("left")) {
                    (Some(a), None) => Edit::Clock {
                        add: parse_duration(a).map_err(|e| format!("add: {e}"))?,
                    },
                    (None, Some(l)) => Edit::ClockLeft {
                        left: parse_duration(l).map_err(|e| format!("left: {e}"))?,
                    },
                    _ => return Err("write /edit clock add:<duration> (more time) or /edit clock left:<duration> (the time left)".into()),
                },
                Some("controller") => {
                    let to = cmd.opt("to").ok_or("missing to:@player (or to:pending)")?;
                    Edit::Controller {
                        army: army(cmd)?,
                        player: match to.trim().to_lowercase().as_str() {
                            "pending" | "-" | "none" => None,
                            _ => Some(player(to)?),
                        },
                    }
                }
                Some("undead") => {
                    let v = cmd.opt("order").ok_or("missing order:@first @second … (the undead, earliest infection first; order:- for none)")?;
                    let mut order = Vec::new();
                    if v.trim() != "-" {
                        for u in v.split_whitespace() {
                            order.push(player(u)?);
                        }
                    }
                    Edit::Undead { order }
                }
                Some("budget") => {
                    let st = game.state();
                    let s = match cmd.opt("s") {
                        Some(v) => halves_list(v, n)?,
                        None => st.pos.turn.s.clone(),
                    };
                    let involved = match cmd.opt("involved") {
                        Some(v) => halves_list(v, n)?,
                        None => st.pos.turn.involved.clone(),
                    };
                    Edit::Budget { s, involved }
                }
                Some("player") => Edit::Forfeited {
                    player: player(cmd.opt("player").ok_or("missing player:@p")?)?,
                    on: on_off("forfeited", cmd.opt("forfeited").ok_or("missing forfeited:on|off")?)?,
                },
                _ => return Err("write /edit put|remove|move|position|clock|budget|player|controller|undead …".into()),
            }),
            _ => return Err(String::new()),
        })
    })())
    .and_then(|r| match r {
        Err(e) if e.is_empty() => None,
        other => Some(other),
    })
}

/// The picture's view of a game at `now`.
pub fn nomic_view(game: &Game, now: Timestamp) -> NomicView {
    let st = game.state_at(now);
    let pos = &st.pos;
    let n = pos.players();
    let piece = |p: Option<nomic::Piece>| p.map(|p| (p.kind.letter(), p.army));
    let last = st.last.as_ref();
    let marks = player_marks(&game.users);
    // The join shown: the push standing, else the last move's.
    let shown = pos.turn.join.or(last.map(|l| l.join));
    // Kings in check on J, and kings checkmated by the last action or on offer (local).
    let check: Vec<Local> = shown
        .map(|j| {
            let b = pos.joined(j);
            pos.attacked_kings(&b, j)
                .into_iter()
                .map(|(sq, _)| j.local(sq.0, sq.1))
                .collect()
        })
        .unwrap_or_default();
    let mated_armies: Vec<usize> = st.mated.iter().chain(pos.offers.iter()).copied().collect();
    let mated: Vec<Local> = pos
        .pieces()
        .into_iter()
        .filter(|(_, p)| p.kind == nomic::Kind::King && mated_armies.contains(&p.army))
        .map(|(l, _)| l)
        .collect();
    let mut halves = Vec::with_capacity(n);
    for h in 0..n {
        let mut v = HalfView {
            label: format!(
                "{} · {} ({})",
                half_letter(h),
                game.users[h],
                army_colour_name(h)
            ),
            ..HalfView::default()
        };
        for r in 0..4u8 {
            for f in 0..8u8 {
                v.squares[r as usize][f as usize] = piece(pos.at(Local {
                    half: h,
                    file: f,
                    rank: r,
                }));
            }
        }
        for l in check.iter().filter(|l| l.half == h) {
            v.check.push((l.file, l.rank));
        }
        for l in mated.iter().filter(|l| l.half == h) {
            v.mated.push((l.file, l.rank));
        }
        if let Some(l) = last {
            for sq in [l.from, l.to] {
                let loc = l.join.local(sq.0, sq.1);
                if loc.half == h {
                    v.marked.push((loc.file, loc.rank));
                }
            }
        }
        halves.push(v);
    }
    // J: the push standing (the mover is about to move on it), else the last move's join
    // with the move highlighted.
    let standing = pos.turn.join;
    let join = match (standing, last) {
        (Some(j), l) => Some((j, l.filter(|l| l.join == j).map(|l| (l.from, l.to)), true)),
        (None, Some(l)) => Some((l.join, Some((l.from, l.to)), false)),
        (None, None) => None,
    }
    .map(|(j, marked, pushed)| {
        let mut squares = [[None; 8]; 8];
        for (r, row) in squares.iter_mut().enumerate() {
            for (f, c) in row.iter_mut().enumerate() {
                *c = piece(pos.at(j.local(f as u8, r as u8)));
            }
        }
        // Squares off the board: nothing is highlighted.
        let (from, to) = marked.unwrap_or(((8, 8), (8, 8)));
        let on_j = |v: &[Local]| -> Vec<(u8, u8)> { v.iter().filter_map(|&l| j.j_of(l)).collect() };
        JoinView {
            check: on_j(&check),
            mated: on_j(&mated),
            label: format!(
                "J: {} at the bottom, {} on top{}",
                half_letter(j.bottom),
                half_letter(j.top),
                if pushed { " (pushed, to move)" } else { "" }
            ),
            squares,
            from,
            to,
        }
    });
    let mut lines = Vec::new();
    if let Some(l) = last {
        lines.push(format!("Last move: {}", l.text));
    }
    let order: Vec<String> = pos.order.iter().map(|a| (a + 1).to_string()).collect();
    lines.push(format!("Order: {}", order.join(", ")));
    for a in 0..n {
        lines.push(format!(
            "Army {} ({}): {}",
            a + 1,
            army_colour_name(a),
            match pos.controllers[a] {
                Some(p) if p != a => format!("{} (disc {})", game.users[p], marks[p]),
                Some(p) => game.users[p].clone(),
                None => "pending (disc ?)".into(),
            }
        ));
    }
    for &a in &pos.offers {
        if let Some(p) = st.current_player() {
            lines.push(format!(
                "Army {} is checkmated: offered to {} (/take or /decline army:{} in part 2)",
                a + 1,
                game.users[p],
                a + 1
            ));
        }
    }
    for &a in st.mated.iter().filter(|a| !pos.offers.contains(a)) {
        lines.push(format!(
            "Army {} is checkmated: {}",
            a + 1,
            match pos.controllers[a] {
                Some(p) => format!("it passes to {}", game.users[p]),
                None => "its control is pending".into(),
            }
        ));
    }
    let mut checked: Vec<usize> = check
        .iter()
        .filter_map(|&l| pos.at(l))
        .map(|p| p.army)
        .filter(|a| !mated_armies.contains(a))
        .collect();
    checked.sort_unstable();
    checked.dedup();
    if !checked.is_empty() {
        let v: Vec<String> = checked.iter().map(|a| format!("army {}", a + 1)).collect();
        lines.push(format!("In check (red): {}", v.join(", ")));
    }
    let names = |v: Vec<usize>| -> String {
        let v: Vec<&str> = v.iter().map(|&p| game.users[p].as_str()).collect();
        if v.is_empty() {
            "-".into()
        } else {
            v.join(", ")
        }
    };
    lines.push(format!(
        "Living: {}; undead: {}",
        names(st.living()),
        names(pos.infected.clone())
    ));
    if (0..n).any(|a| pos.controllers[a] != Some(a)) {
        let legend: Vec<String> = (0..n)
            .filter(|&p| (0..n).any(|a| a != p && pos.controllers[a] == Some(p)))
            .map(|p| format!("{} {}", marks[p], game.users[p]))
            .collect();
        let mut legend = legend.join(", ");
        if pos.controllers.iter().any(Option::is_none) {
            if !legend.is_empty() {
                legend.push_str("; ");
            }
            legend.push_str("? pending");
        }
        lines.push(format!(
            "Disc on a piece: the player who plays its army: {legend}"
        ));
    }
    lines.push(game.whose_line(&st));
    NomicView {
        title: format!("Nomic Chess · #{}", game.next_number() - 1),
        halves,
        join,
        controllers: pos.controllers.clone(),
        marks,
        lines,
    }
}

/// Each player's mark on the disc of the armies they play for another: their initial when
/// the players' initials differ, else their half's letter.
fn player_marks(players: &[String]) -> Vec<String> {
    let initials: Vec<String> = players
        .iter()
        .map(|u| {
            u.chars()
                .find(char::is_ascii_alphanumeric)
                .map(|c| c.to_ascii_uppercase().to_string())
                .unwrap_or_default()
        })
        .collect();
    let mut sorted = initials.clone();
    sorted.sort();
    sorted.dedup();
    if sorted.len() == players.len() && initials.iter().all(|i| !i.is_empty()) {
        initials
    } else {
        (0..players.len())
            .map(|h| half_letter(h).to_string())
            .collect()
    }
}

/// Buttons for an open vote: each is a command pressed in the thread.
fn vote_buttons(thread: &str, proposal: u32) -> Vec<String> {
    ["for", "against"]
        .iter()
        .map(|c| {
            crate::layer::command_button_id(
                thread,
                &format!("/vote proposal:{proposal} choice:{c}"),
            )
        })
        .collect()
}

/// Whether an action changes the board a replay draws: a push, a move, a Referee's edit or a
/// demotion.
fn drawn(a: &nomic::Action) -> bool {
    matches!(
        a,
        nomic::Action::Push { .. }
            | nomic::Action::Move { .. }
            | nomic::Action::Edit(_)
            | nomic::Action::Demote { .. }
    )
}

impl ThreadGame for Game {
    game::seam!(KIND, |_, a| accepted(a); Pictured, Animated);

    /// None: a turn is pushes, votes and army moves.
    fn conditional(&self) -> Result<&dyn game::Conditional, String> {
        Err("Nomic Chess has no conditional moves: a turn is pushes, votes and army moves, not one play a reply could answer".into())
    }

    fn limits_text(&self) -> Option<String> {
        let s = &self.state().settings;
        let d = crate::time::format_duration;
        Some(format!(
            "part 1 of a turn lasts {}, part 3 {}, a vote {}",
            d(s.part1_limit),
            d(s.part3_limit),
            d(s.vote_limit)
        ))
    }

    /// `/forfeit` puts its sender out of the game for good: asked once.
    fn confirm_first(&self, user: &str, cmd: &Command) -> Option<String> {
        if cmd.name != "forfeit" || Game::finished(self) {
            return None;
        }
        let p = self.player_of(user)?;
        if self.state().pos.forfeited.get(p).copied().unwrap_or(true) {
            return None;
        }
        Some(
            "Forfeit? You are out of the game for good; the Referees decide what happens to your armies."
                .into(),
        )
    }

    fn officials(&self) -> Vec<String> {
        self.state().settings.referees.clone()
    }

    fn stalled(&self, now: Timestamp) -> Option<Timestamp> {
        let st = self.state_at(now);
        st.paused.filter(|_| st.stalled)
    }

    /// The winner first, every other player sharing second (its end names only a winner); a
    /// game over without a winner places everyone level.
    fn placings(&self) -> Option<Vec<crate::rating::Side>> {
        let st = self.state();
        if !st.over {
            return None;
        }
        let places = (0..self.users.len()).map(|i| {
            if st.winner.is_none_or(|w| w == i) {
                1
            } else {
                2
            }
        });
        Some(crate::rating::sides_alone(&self.users, places))
    }

    fn moderates(&self, user: &str) -> bool {
        // Referees are the game's moderators (Nomic rules 6.10a): /revert included.
        self.state().settings.referees.iter().any(|r| r == user)
    }

    fn act(&mut self, caller: &Caller<'_>, cmd: &Command, raw: &str) -> Option<Reply> {
        if cmd.name == "rules" {
            let st = self.state_at(caller.now);
            let text = match cmd
                .opt("number")
                .or(cmd.positional.first().map(String::as_str))
            {
                Some(v) => match v.trim().parse::<u32>().ok().and_then(|n| st.rules.full(n)) {
                    Some(t) => t,
                    None => {
                        return Some(Reply::refused(format!(
                            "there is no rule {v}; /rules lists them"
                        )))
                    }
                },
                None => st.rules.summary(),
            };
            return Some(Reply {
                ok: Some(true),
                text,
                ephemeral: true,
                ..Reply::default()
            });
        }
        let action = match action(self, cmd)? {
            Ok(a) => a,
            Err(e) => return Some(Reply::refused(e)),
        };
        let proposing = matches!(action, Action::Propose { .. });
        Some(
            match self.apply_as(caller.user, caller.roles.organiser, action, caller.now, raw) {
                Ok(a) => {
                    let mut r = accepted(a);
                    if proposing {
                        if let Some(p) = self.state().open_vote() {
                            r.buttons = vote_buttons(caller.thread, p.n);
                        }
                    }
                    r
                }
                Err(e) => Reply::refused(e.to_string()),
            },
        )
    }

    fn status(&self, now: Timestamp) -> String {
        self.status_text(now)
    }

    fn state_lines(&self, now: Timestamp) -> Vec<String> {
        Game::state_lines(self, now)
    }

    fn offered_moves(&self, a: &Asker<'_>) -> Result<Vec<String>, String> {
        self.offered(a.user, a.now).map_err(|e| e.to_string())
    }

    fn planned_moves(&self, a: &Asker<'_>) -> Vec<String> {
        self.planned(a.user, a.now)
    }

    fn export(&self) -> String {
        export::export(self)
    }

    fn due(&self, after: Timestamp, until: Timestamp) -> Vec<Due> {
        let mut out = Vec::new();
        self.each_event(after, until, |e, st| {
            let mut asks = self.asks(st);
            for c in e.calls {
                if !asks.contains(&c) {
                    asks.push(c);
                }
            }
            let notify = notify_of(&asks).unwrap_or_default().headed(e.text);
            out.push(Due {
                seat: e.code,
                at: e.at,
                notify,
                limit_of: None,
            });
        });
        out
    }

    fn catch_up(&mut self, now: Timestamp) {
        // Where the limits stand once the sweep announced them: the next sweep starts there.
        Game::catch_up(self, now);
    }

    fn button_live(&self, command: &str, now: Timestamp) -> bool {
        // A vote button lives while its proposal is open.
        // A button's command is plain (`vote …`): no group, no option to the end of the line.
        let Some(cmd) = Command::parse_plain(command) else {
            return false;
        };
        if cmd.name != "vote" {
            return true;
        }
        let st = self.state_at(now);
        match number(&cmd, "proposal") {
            Ok(n) => st.open_vote().is_some_and(|p| p.n == n) && !st.over,
            Err(_) => false,
        }
    }

    fn square_seen(&self, a: &Asker<'_>, square: &str) -> Option<crate::layer::game::SquareSeen> {
        use crate::games::nomic::position::{parse_square, Local};
        use crate::layer::game::SquareSeen;
        // A square of the joined board (`d4`) or of a half (`A:d1`, a half of this game):
        // anything else is no square at all, pushed or not.
        let local = square.contains(':');
        let names_one = if local {
            Local::parse(square).is_some_and(|l| l.half < self.users.len())
        } else {
            parse_square(square, 8).is_some()
        };
        if !names_one {
            return Some(SquareSeen::OffBoard);
        }
        if local {
            return None;
        }
        // Squares mean something only on the joined board of a move (after the push).
        let st = self.state_at(a.now);
        let join = st.pos.turn.join?;
        let crate::games::nomic::Slot::Army(army) = st.pos.turn.slot else {
            return None;
        };
        self.player_of(a.user)?;
        let b = st.pos.joined(join);
        let found = parse_square(square, 8).map(|(f, r)| b[usize::from(r)][usize::from(f)]);
        SquareSeen::of(found, |p| {
            Some(SquareSeen::piece(
                p.kind.lower_name().to_string(),
                p.army == army,
                self.army_name(&st, p.army),
                self.army_name(&st, army),
            ))
        })
    }

    fn awaited(&self, now: Timestamp) -> Option<Vec<(String, String)>> {
        Some(self.asks(&self.state_at(now)))
    }
}

impl game::Pictured for Game {
    fn pictured(&self, command: &str) -> bool {
        // A push joins two halves and a move changes J; the picture shows both.
        matches!(command, "move" | "push" | "takeback" | "revert")
    }

    fn picture(&self, _thread: &str, now: Timestamp) -> PictureJob {
        let mut view = nomic_view(self, now);
        if let Some(note) = self.away.picture_note(now) {
            view.lines.push(note);
        }
        game::picture_job(view, render_nomic)
    }
}

impl game::Animated for Game {
    fn animation(&self, opts: &ReplayOptions, _now: Timestamp) -> Result<ReplayJob, String> {
        let frames = Frames::one_board(
            self,
            opts,
            drawn,
            |e, snap| nomic_view(snap, e.time),
            |e, _| {
                let what = nomic::describe(&e.action, &self.users);
                replay::numbered(e, &format!("{}: {what}", e.actor))
            },
        )?;
        let over = Game::finished(self).then(|| "the game is over".to_string());
        frames.ended(over, replay::header(KIND.title, &self.users), opts.speed)
    }
}
