//! Party Chess on the game layer (Party rules 3.9): `/party new`, `/party pieces set:`,
//! `/move`, `/pass`, `/surrender`, `/pieces`, the Chess-Umpire's `/party extend|warm|swinger|
//! create|end` and `/ledger`, and the shared `/takeback`, `/revert`, `/status`, `/moves`,
//! `/export`.

use crate::games::party::{self, export, Game, Kind, Request, Settings};
use crate::layer::game::{
    self, announced, duration_opt, main_text, seed_opt, switch, Asker, Due, GameKind, NewGame,
    OnTable, PictureJob, ThreadGame,
};
use crate::layer::replay::{self as replay, Frames, ReplayJob, ReplayOptions};
use crate::layer::{mention, Caller, Command, Notify, Reply};

use crate::time::{parse_duration, Timestamp};

/// Party Chess in the game layer.
pub static KIND: GameKind = GameKind {
    variant: "party",
    title: "Party Chess",
    group: "party",
    declared: super::commands::ENTRIES,
    create,
    load,
    import: |text| crate::layer::imported(export::import(text)),
    acts_on_leave: true,
};

fn mentions(v: &str) -> Vec<String> {
    v.split_whitespace().map(mention).collect()
}

fn create(caller: &Caller<'_>, cmd: &Command, entropy: u64) -> Result<NewGame, String> {
    let swingers = cmd.opt("swingers").or(cmd.opt("players")).map(mentions);
    let Some(swingers) = swingers else {
        return Err("name the Swingers: /party new umpire:@u swingers:@a @b …".into());
    };
    let mut new = party::NewGame {
        swingers,
        first: cmd.opt("first").map(mention),
        umpire: cmd
            .opt("umpire")
            .map_or_else(|| caller.user.to_string(), mention),
        turn_limit: None,
        seed: entropy,
        position: cmd.opt("position").map(str::to_string),
        echo: cmd.opt("echo").map(party::EchoRule::parse).transpose()?,
    };
    new.turn_limit = duration_opt(cmd, "turn_limit")?.or(new.turn_limit);
    new.seed = seed_opt(cmd)?.unwrap_or(new.seed);
    let pace = game::pace_opt(cmd)?;
    let mut game = Game::create(new, caller.user, caller.now).map_err(|e| e.to_string())?;
    game.settings.pace = pace;
    let list: Vec<String> = game
        .position()
        .list
        .iter()
        .map(|&s| format!("{} ({s})", game.user(s)))
        .collect();
    let mut text = format!(
        "Party Chess created by {}: Chess-Umpire {}; Play List {}; turn limit {}; seed {}; echo: {}",
        caller.user,
        game.state().umpire,
        list.join(", "),
        crate::time::format_duration(game.settings.turn_limit),
        game.settings.seed,
        game.settings.echo.word()
    );
    let what = if game.state().started {
        text.push('\n');
        text.push_str(&game.weights_line());
        if let Some(s) = game.to_play() {
            text.push_str(&format!("\n{} to play.", game.user(s)));
        }
        "you play in a new game of Party Chess (from a position)".to_string()
    } else {
        text.push_str("\nEach Swinger has a King; pick five pieces of total value at most 30 with /party pieces set:<letters> (see /pieces).");
        "you are a Swinger in a new game of Party Chess: pick five pieces with /party pieces set:<letters>".to_string()
    };
    let notify = Notify::to(game.users(), what);
    Ok(announced(game, text, notify))
}

// The seats are in the log's start (a Swinger may join later), not in the stored users.
game::loader!(load, |_, s: Settings, l, _| Game::from_log(s, l));

/// `/pieces`: every type with its value, limit and movement; why il-Nabi and the Zombie are
/// not pieces.
pub fn pieces_text() -> String {
    let mut v = vec!["Party Chess pieces (letter, name, value, limit: movement):".to_string()];
    for k in Kind::ALL {
        v.push(format!(
            "{} {} — value {}{}: {}",
            k.letter(),
            k.name(),
            k.value(),
            k.limit().map_or(String::new(), |l| format!(", limit {l}")),
            k.summary()
        ));
    }
    v.push(format!(
        "Not pieces: {}; {}.",
        party::piece::refused_letter('M').unwrap_or_default(),
        party::piece::ZOMBIE
    ));
    v.join("\n")
}

fn player_and_switch(cmd: &Command) -> (Option<String>, Option<bool>) {
    let mut words: Vec<String> = cmd
        .opt("player")
        .map(|v| v.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    words.extend(cmd.positional.iter().cloned());
    let mut on = cmd.opt("state").or(cmd.opt("on")).and_then(switch);
    let mut player = None;
    for w in words {
        match switch(&w) {
            Some(b) => on = Some(b),
            None => player = Some(mention(&w)),
        }
    }
    (player, on)
}

fn request(cmd: &Command) -> Option<Result<Request, String>> {
    let player = || {
        cmd.opt("player")
            .map(|p| mention(p.split_whitespace().next().unwrap_or("")))
            .ok_or_else(|| "missing player:@x".to_string())
    };
    Some(match cmd.name.as_str() {
        "move" => match main_text(cmd, "notation") {
            Some(t) => Ok(Request::Play(t)),
            None => Err("missing notation (like /move Rc3-c9 or /move R@c5)".into()),
        },
        "pass" => Ok(Request::Pass),
        "surrender" => Ok(Request::Surrender),
        "party pieces" => match cmd
            .opt("set")
            .map(String::from)
            .or_else(|| cmd.positional.first().cloned())
        {
            Some(s) => Ok(Request::Pick(s)),
            None => Err(
                "pick five pieces with /party pieces set:<letters> (like set:RRCJP; see /pieces)"
                    .into(),
            ),
        },
        "party extend" => {
            let until = cmd
                .opt("until")
                .ok_or_else(|| "missing until:<duration> (like until:5d)".to_string())
                .and_then(|u| parse_duration(u).map_err(|e| e.to_string()));
            player().and_then(|p| until.map(|u| Request::Extend(p, u)))
        }
        "party warm" => match player_and_switch(cmd) {
            (Some(p), Some(on)) => Ok(Request::Warm(p, on)),
            _ => Err("use /party warm player:@x on|off".into()),
        },
        "party swinger" => match cmd.positional.first().map(|s| s.to_ascii_lowercase()) {
            Some(w) if w == "add" => player().map(Request::Add),
            Some(w) if w == "remove" => player().map(Request::Remove),
            _ => Err("use /party swinger add|remove player:@x".into()),
        },
        "party create" => match (cmd.opt("piece"), cmd.opt("for")) {
            (Some(p), Some(f)) => Ok(Request::Create(p.trim().to_string(), mention(f))),
            _ => Err("use /party create piece:<letter> for:@x".into()),
        },
        "party end" => Ok(Request::End),
        "resume" => Ok(Request::Resume),
        "ledger" => {
            let text = cmd.opt("text").unwrap_or("").to_string();
            match cmd.positional.first().map(|s| s.to_ascii_lowercase()) {
                Some(w) if w == "add" => Ok(Request::Ledger(None, text)),
                Some(w) if w == "edit" => {
                    let n = cmd
                        .opt("entry")
                        .or(cmd.opt("line"))
                        .map(str::to_string)
                        .or_else(|| cmd.positional.get(1).cloned());
                    match n.and_then(|n| n.trim_start_matches('#').parse::<usize>().ok()) {
                        Some(n) => Ok(Request::Ledger(Some(n), text)),
                        None => Err("use /ledger edit <line number> text:<text>".into()),
                    }
                }
                _ => Err("use /ledger add text:<text> or /ledger edit <n> text:<text>".into()),
            }
        }
        _ => return None,
    })
}

fn accepted(a: party::Accepted) -> Reply {
    game::accepted(a.number, a.text, Notify::each(a.notify))
}

impl ThreadGame for Game {
    game::seam!(KIND, |_, a| accepted(a); Conditional, Pictured, Animated);

    fn limits_text(&self) -> Option<String> {
        Some(if self.settings.turn_limit == 0 {
            "no turn limit".into()
        } else {
            format!(
                "turn limit {}",
                crate::time::format_duration(self.settings.turn_limit)
            )
        })
    }

    fn officials(&self) -> Vec<String> {
        vec![self.state().umpire.clone()]
    }

    fn stalled(&self, now: Timestamp) -> Option<Timestamp> {
        self.at(now).state().stalled
    }

    /// By the final Weights, heaviest first (equal Weights, as posted with one decimal, share
    /// a place); a seat no longer on the board comes last.
    fn placings(&self) -> Option<Vec<crate::rating::Side>> {
        if !self.ended() {
            return None;
        }
        let st = self.state();
        let seats = st.pos.seats();
        let scores: Vec<f64> = (1..=st.users.len())
            .map(|n| {
                let seat = u8::try_from(n).unwrap_or(u8::MAX);
                if seats.contains(&seat) {
                    (crate::games::party::weight::weight(&st.pos, seat) * 10.0).round()
                } else {
                    -1.0
                }
            })
            .collect();
        let places = crate::rating::places_by_score(&scores);
        Some(crate::rating::sides_alone(&st.users, places))
    }

    fn act(&mut self, caller: &Caller<'_>, cmd: &Command, raw: &str) -> Option<Reply> {
        if cmd.name == "pieces" {
            return Some(Reply {
                ok: Some(true),
                text: pieces_text(),
                ephemeral: true,
                ..Reply::default()
            });
        }
        if cmd.name == "ledger" && cmd.positional.is_empty() && cmd.opt("text").is_none() {
            // `/ledger` alone shows it, to anyone.
            let ledger = &self.state().ledger;
            let text = if ledger.is_empty() {
                "the ledger is empty (the Chess-Umpire adds lines with /ledger add text:<text>)"
                    .to_string()
            } else {
                let lines: Vec<String> = ledger
                    .iter()
                    .enumerate()
                    .map(|(i, l)| format!("{}. {l}", i + 1))
                    .collect();
                format!("the ledger:\n{}", lines.join("\n"))
            };
            return Some(Reply {
                ok: Some(true),
                text,
                ephemeral: true,
                ..Reply::default()
            });
        }
        let req = match request(cmd)? {
            Ok(r) => r,
            Err(e) => return Some(Reply::refused(e)),
        };
        Some(
            match self.apply(caller.user, caller.roles.organiser, req, caller.now, raw) {
                Ok(a) => accepted(a),
                Err(e) => Reply::refused(e.to_string()),
            },
        )
    }

    fn member_left(&mut self, user: &str, now: Timestamp) -> Option<Reply> {
        Game::member_left(self, user, now).map(accepted)
    }

    fn status(&self, now: Timestamp) -> String {
        self.at(now).status_text(now)
    }

    fn state_lines(&self, now: Timestamp) -> Vec<String> {
        self.at(now).state_lines()
    }

    fn offered_moves(&self, a: &Asker<'_>) -> Result<Vec<String>, String> {
        self.at(a.now).offered(a.user).map_err(|e| e.to_string())
    }

    fn planned_moves(&self, a: &Asker<'_>) -> Vec<String> {
        self.at(a.now).planned(a.user)
    }

    fn export(&self) -> String {
        export::export(self)
    }

    fn due(&self, after: Timestamp, until: Timestamp) -> Vec<Due> {
        // One pass: each expiry says who plays next and whether it paused the game (a
        // replay per expiry made a day of one-minute limits cost its square).
        self.expiries(after, until)
            .into_iter()
            .map(|e| {
                // The notice is numbered and ends with the Weights and who plays next; the
                // default play that pauses the game pings its organiser and Umpire instead.
                let notify = if e.paused {
                    Notify::to(
                        crate::layer::remind::keepers(self),
                        "this Party Chess game is paused for want of play: /resume when it should go on",
                    )
                    .headed(e.text)
                } else {
                    Notify::to(e.next, e.text)
                };
                Due {
                    seat: usize::from(e.seat),
                    at: e.at,
                    notify,
                    limit_of: None,
                }
            })
            .collect()
    }

    fn catch_up(&mut self, now: Timestamp) {
        // The default plays the sweep announced go into the log, as an action would write
        // them; the sweep stores them.
        Game::catch_up(self, now);
    }

    fn square_seen(&self, a: &Asker<'_>, square: &str) -> Option<crate::layer::game::SquareSeen> {
        use crate::games::party::board::Sq;
        use crate::layer::game::SquareSeen;
        // Only lower-case files are squares of the board (`/move` reads them so).
        let found = Sq::parse(square)
            .filter(|_| square.starts_with(|c: char| c.is_ascii_lowercase()))
            .map(|sq| self.position().at(sq));
        SquareSeen::of(found, |p| {
            let me = self.seat_of(a.user)?;
            Some(SquareSeen::piece(
                p.kind.name().to_string(),
                p.seat == me,
                format!("{} ({})", self.user(p.seat), p.seat),
                format!("seat {me}"),
            ))
        })
    }

    /// Before play begins, the Swingers who have not picked their pieces (Party rules 3.3);
    /// then the Swinger to play, with the turn limit as the deadline.
    fn waits(&self, now: Timestamp) -> Vec<game::Wait> {
        if OnTable::finished(self) {
            return Vec::new();
        }
        let picks = self.waiting_picks();
        if self.to_play().is_none() && !picks.is_empty() {
            let asked: Vec<(String, String)> = picks
                .into_iter()
                .map(|u| (u, "pick your five pieces (/party pieces set:)".to_string()))
                .collect();
            return game::waiting(self, |_| asked.clone(), now);
        }
        game::waiting(self, |t| self.awaited(t).unwrap_or_default(), now)
    }

    fn awaited(&self, now: Timestamp) -> Option<Vec<(String, String)>> {
        let g = self.at(now);
        Some(
            g.to_play()
                .map(|s| (g.user(s).to_string(), "play".to_string()))
                .into_iter()
                .collect(),
        )
    }
}

impl game::Conditional for Game {
    fn read_play(&self, play: &str) -> Result<(), String> {
        crate::games::party::notation::read(play)
    }

    /// Lines in turns: a play for each Swinger above the player on the Play List, then the
    /// reply; the next rounds name every other Swinger in the list's order.
    fn premove_seat(&self, user: &str, now: Timestamp) -> Result<game::PremoveSeat, String> {
        let g = self.at(now);
        let seat = g
            .seat_of(user)
            .ok_or("you do not play in this game: only its Swingers set conditional moves")?;
        if g.to_play().is_none() {
            return Err("play has not begun: conditional moves begin with it".into());
        }
        let list = &g.state().pos.list;
        let name = |s: u8| (usize::from(s), g.user(s).to_string());
        let before: Vec<(usize, String)> = list
            .iter()
            .take_while(|&&s| s != seat)
            .map(|&s| name(s))
            .collect();
        let between: Vec<(usize, String)> = list
            .iter()
            .filter(|&&s| s != seat)
            .map(|&s| name(s))
            .collect();
        Ok(game::PremoveSeat {
            board: 0,
            seat: usize::from(seat),
            turns: true,
            before,
            between,
        })
    }

    fn plays(&self, now: Timestamp) -> Vec<game::Played> {
        let g = self.at(now);
        g.log
            .in_effect_at()
            .filter_map(|(index, e)| match &e.action {
                party::Action::Play { seat, notation, .. } => Some(game::Played {
                    index,
                    board: 0,
                    seat: usize::from(*seat),
                    notation: notation.clone(),
                }),
                _ => None,
            })
            .collect()
    }
}

impl game::Pictured for Game {
    fn pictured(&self, command: &str) -> bool {
        // Every play changes the board or the Play List the picture shows.
        matches!(
            command,
            "move" | "pass" | "surrender" | "takeback" | "revert" | "party end"
        )
    }

    fn picture(&self, _thread: &str, now: Timestamp) -> PictureJob {
        let mut view = crate::games::party::picture::view_of(&self.at(now));
        if let Some(note) = self.away.picture_note(now) {
            view.to_play = format!("{} · {note}", view.to_play);
        }
        Box::new(move || {
            crate::games::party::picture::render_party(&view).map_err(|e| e.to_string())
        })
    }
}

impl game::Animated for Game {
    fn animation(&self, opts: &ReplayOptions, now: Timestamp) -> Result<ReplayJob, String> {
        // The default plays that fell due by now are part of the game (as its picture shows).
        let game = self.at(now);
        let mut frames = Frames::one_board(
            &*game,
            opts,
            |a| {
                matches!(
                    a,
                    party::Action::Play { .. } | party::Action::RemoveSwinger { .. }
                )
            },
            |_, snap| super::picture::view_of(snap),
            |e, snap| {
                let n = e.number.unwrap_or(0);
                match &e.action {
                    party::Action::Play { seat, notation, .. } => {
                        format!("#{n} {} {notation}", snap.user(*seat))
                    }
                    party::Action::RemoveSwinger { seat } => {
                        format!("#{n} seat {seat}'s office is destroyed")
                    }
                    _ => format!("#{n}"),
                }
            },
        )?;
        frames.finish(
            game.state()
                .ended
                .as_ref()
                .map(|r| format!("ended by the Chess-Umpire. Result: {r}")),
        );
        frames.job(replay::header(KIND.title, &game.users()), opts.speed)
    }
}
