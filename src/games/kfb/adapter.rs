//! Kung Fu Bughouse with Different Armies on the game layer: its commands (`/kfb new`,
//! `/pick`, `/move`, `/give`, `/claim`, `/resign`, `/proxy`), its texts and its timers.

pub use super::view::{clock_text, kfb_picture, kfb_view};

use crate::engine::fen;
use crate::games::hint;
use crate::games::kfb::{self, draft, Accepted, Game, HandOver, Settings};
use crate::layer::game::{
    self, main_text, Asker, Due, GameKind, NewGame, OnTable, PictureJob, SquareSeen, ThreadGame,
};
use crate::layer::replay::{Frames, ReplayJob, ReplayOptions};
use crate::layer::{mention, Caller, Command, Notify, Reply};
use crate::time::{format_duration, parse_duration, stamp, Style, Timestamp};

/// KFB in the game layer.
pub static KIND: GameKind = GameKind {
    variant: "kfb",
    title: "Kung Fu Bughouse",
    group: "kfb",
    declared: super::commands::ENTRIES,
    create,
    load,
    import: |text| crate::layer::imported(kfb::export::import(text)),
    acts_on_leave: false,
};

fn create(caller: &Caller<'_>, cmd: &Command, entropy: u64) -> Result<NewGame, String> {
    let team = |k: &str| -> Vec<String> {
        cmd.opt(k)
            .unwrap_or("")
            .split_whitespace()
            .map(mention)
            .collect()
    };
    let (t1, t2) = (team("team1"), team("team2"));
    if t1.len() != 3 || t2.len() != 3 {
        return Err("each team needs exactly three players: team1:@a @b @c team2:@d @e @f".into());
    }
    let mut settings = Settings {
        pace: crate::layer::pace::Pace::default(),
        created: None,
        seed: entropy,
        ..Settings::default()
    };
    if let Some(l) = cmd.opt("move_limit") {
        match parse_duration(l) {
            Ok(s) => settings.move_limit = s,
            Err(e) => return Err(e.to_string()),
        }
    }
    if let Some(n) = cmd.opt("inactivity_posts") {
        match n.parse::<u32>() {
            Ok(v) if v > 0 => settings.inactivity_posts = v,
            _ => {
                return Err(String::from(
                    "inactivity_posts must be a whole number above 0",
                ))
            }
        }
    }
    if let Some(v) = cmd.opt("promoted_pawns") {
        settings.promoted_to_pawn = game::switch(v).ok_or("promoted_pawns must be on (a captured promoted piece returns to hand as a pawn) or off")?;
    }
    settings.seed = game::seed_opt(cmd)?.unwrap_or(settings.seed);
    settings.pace = game::pace_opt(cmd)?;
    settings.created = Some((caller.user.to_string(), caller.now));
    let users: Vec<String> = t1.into_iter().chain(t2).collect();
    match Game::new(users, settings) {
        Ok(game) => {
            let text = format!(
                "game created by {}: {}",
                caller.user,
                game_announcement(&game)
            );
            let notify = new_game_notify(&game, "a new game of Kung Fu Bughouse");
            Ok(game::announced(game, text, notify))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// The public reply of an accepted action: numbered as in the log, notifying whoever must
/// act next.
fn accepted(a: Accepted) -> Reply {
    game::accepted(a.number, a.text, a.notify)
}

/// A choice handed over in the draft: refused for its sender (only they see it), while the
/// thread is told which team picks the replacement, notifying its players.
fn handed_over(h: HandOver) -> Reply {
    Reply {
        notify: Some(Notify::to(h.replacing, h.ask).headed(h.notice)),
        ..Reply::refused(h.refusal)
    }
}

game::loader!(load, |u, s: Settings, l, a| Game::from_log_away(u, s, l, a));

/// What a new game's six players are told (`what` names the game): they play, and who makes
/// the first pick.
pub fn new_game_notify(game: &Game, what: &str) -> Notify {
    let first = Game::first_picker(&game.settings);
    let team = if first < 3 { "team 1" } else { "team 2" };
    Notify::to(
        game.users.clone(),
        format!(
            "you play in {what}: team 1 {} vs team 2 {}; {} ({team}) makes the first pick (/pick order color army)",
            game.users[..3].join(", "),
            game.users[3..].join(", "),
            game.users[first],
        ),
    )
}

/// A new game's teams, settings and first picker, with how to pick.
pub fn game_announcement(game: &Game) -> String {
    let settings = &game.settings;
    let first = Game::first_picker(settings);
    format!(
        "team 1 {} vs team 2 {}; move limit {}, inactivity {} posts; seed {}; first picker {} ({}): /pick order:first|second color:red|lightgreen|blue army:fide|clobberers|nutty|rookies|forward",
        game.users[..3].join(", "),
        game.users[3..].join(", "),
        format_duration(settings.move_limit),
        settings.inactivity_posts,
        settings.seed,
        game.users[first],
        if first < 3 { "team 1" } else { "team 2" }
    )
}

/// The `/status` text.
pub fn status_text(game: &Game, now: Timestamp) -> String {
    let st = game.state();
    let mut s = String::new();
    if st.boards.is_none() {
        if let Some(turn) = game.draft_turn_text() {
            s.push_str(&format!("draft: {turn}\n"));
        }
        for (i, p) in st.players.iter().enumerate() {
            let c = st
                .draft
                .choice(i)
                .map(|c| {
                    format!(
                        "{} {} {}",
                        c.order.as_str(),
                        c.colour.as_str(),
                        c.army.as_str()
                    )
                })
                .unwrap_or_else(|| "not picked".into());
            s.push_str(&format!("{} (team {}): {c}\n", p.user, i / 3 + 1));
        }
        return s;
    }
    if let Some((t, how)) = &st.winner {
        s.push_str(&format!("game over: team {} won ({how})\n", t + 1));
    }
    s.push_str(&game.seating_text());
    for (i, p) in st.players.iter().enumerate() {
        // After the end nobody is locked or waited on; a frozen board says why first, since
        // no lock's end lets anyone move there.
        let lock = if st.winner.is_some() {
            String::new()
        } else if let Some(why) = game.frozen_why(i) {
            format!("{why}; ")
        } else {
            let lock = match game.locked_until(i, now) {
                Some(u) => format!(
                    "locked until {} ({})",
                    stamp(u, Style::Full),
                    stamp(u, Style::Relative)
                ),
                None if game.is_free(i, now) => "free to move".into(),
                None => match &st.boards {
                    Some(boards) => {
                        let b = &boards[p.board];
                        format!(
                            "waits for {}'s first move on board {}",
                            st.players[b.first].user,
                            p.board + 1
                        )
                    }
                    None => "waiting".into(),
                },
            };
            format!("{lock}; ")
        };
        s.push_str(&format!(
            "{}: {lock}inactivity {}/{}\n",
            p.user, p.counter, game.settings.inactivity_posts
        ));
    }
    s.push_str(&format!("kings: {}\n", game.kings_summary()));
    s
}

/// The console's `!state` lines.
pub fn state_lines(game: &Game, now: Timestamp) -> Vec<String> {
    let st = game.state();
    let mut out = Vec::new();
    let Some(boards) = &st.boards else {
        out.push("draft in progress".into());
        if let Some(turn) = game.draft_turn_text() {
            out.push(format!("draft: {turn}"));
        }
        for (i, p) in st.players.iter().enumerate() {
            let pick = st
                .draft
                .choice(i)
                .map_or_else(|| "not picked".to_string(), |c| c.to_string());
            out.push(format!("pick {}: {pick}", p.user));
        }
        return out;
    };
    for (i, b) in boards.iter().enumerate() {
        out.push(format!(
            "board {}: {} [{}]",
            i + 1,
            fen::write_placement(&b.pos),
            fen::write_hands(&b.pos)
        ));
    }
    for (i, p) in st.players.iter().enumerate() {
        let lock = match game.locked_until(i, now) {
            Some(u) => format!("locked until {u}"),
            None => "unlocked".into(),
        };
        out.push(format!("lock {}: {lock}", p.user));
    }
    for p in &st.players {
        out.push(format!("inactivity {}: {}", p.user, p.counter));
    }
    out.push(format!("kings held: {}", game.kings_summary()));
    out
}

fn seated(game: &Game, user: &str) -> Result<usize, String> {
    game.seat_of(user)
        .ok_or_else(|| "you are not seated in this game".to_string())
}

fn pick(
    game: &mut Game,
    caller: &Caller<'_>,
    cmd: &Command,
    raw: &str,
) -> Result<kfb::PickOutcome, String> {
    let seat = seated(game, caller.user)?;
    let order = cmd.opt("order").ok_or("missing order:first|second")?;
    let colour = cmd
        .opt("color")
        .or(cmd.opt("colour"))
        .ok_or("missing color:red|lightgreen|blue")?;
    let army = cmd
        .opt("army")
        .ok_or("missing army:fide|clobberers|nutty|rookies|forward")?;
    let choice = draft::Choice {
        order: draft::Order::parse(order).map_err(|e| e.to_string())?,
        colour: draft::Colour::parse(colour).map_err(|e| e.to_string())?,
        army: draft::Army::parse(army).map_err(|e| e.to_string())?,
    };
    let for_player = match cmd.opt("for") {
        Some(f) => Some(
            game.seat_of(&mention(f))
                .ok_or("for: must name a seated player")?,
        ),
        None => None,
    };
    game.pick(seat, for_player, choice, caller.now, raw)
        .map_err(|e| e.to_string())
}

fn play(
    game: &mut Game,
    caller: &Caller<'_>,
    cmd: &Command,
    raw: &str,
) -> Result<kfb::Accepted, String> {
    // Bare words are the notation, spaces kept (`/move P@g6 (nutty)`), as the one notation
    // option is on Discord.
    let text = main_text(cmd, "notation").ok_or("missing notation (like /move e2-e4)")?;
    let board = match cmd.opt("board") {
        Some(b) => Some(b.parse::<usize>().map_err(|_| "board must be 1, 2 or 3")?),
        None => None,
    };
    let seat = game
        .acting_seat(caller.user, board)
        .map_err(|e| e.to_string())?;
    match game.play(caller.user, seat, &text, cmd.opt("army"), caller.now, raw) {
        Ok(a) => Ok(a),
        Err(e @ kfb::Refusal::Notation(_)) => {
            let offered: Vec<String> = game
                .legal_moves(seat, caller.now)
                .into_iter()
                .map(|(_, s)| s)
                .collect();
            let check = game.king_in_check(seat);
            Err(hint::refined(
                e.to_string(),
                &text,
                &offered,
                check.as_deref(),
            ))
        }
        Err(e) => Err(e.to_string()),
    }
}

fn give(
    game: &mut Game,
    caller: &Caller<'_>,
    cmd: &Command,
    raw: &str,
) -> Result<kfb::Accepted, String> {
    let seat = seated(game, caller.user)?;
    let piece = cmd.opt("piece").unwrap_or("K");
    if !piece.eq_ignore_ascii_case("k") {
        return Err("only kings are given (piece:K); other pieces route by themselves".to_string());
    }
    let to = cmd.opt("to").ok_or("missing to:@teammate")?;
    game.give(
        seat,
        &mention(to),
        cmd.opt("color").or(cmd.opt("colour")),
        caller.now,
        raw,
    )
    .map_err(|e| e.to_string())
}

fn proxy(
    game: &mut Game,
    caller: &Caller<'_>,
    cmd: &Command,
    raw: &str,
) -> Result<kfb::Accepted, String> {
    if !caller.roles.organiser {
        return Err("only an organiser may grant or revoke proxies".to_string());
    }
    let p = cmd.opt("player").ok_or("missing player:@x")?;
    let f = cmd.opt("for").ok_or("missing for:@y")?;
    game.proxy(
        caller.user,
        cmd.name == "proxy grant",
        &mention(p),
        &mention(f),
        caller.now,
        raw,
    )
    .map_err(|e| e.to_string())
}

impl ThreadGame for Game {
    game::seam!(KIND, |_, a| accepted(a); Conditional, Pictured, Animated);

    fn limits_text(&self) -> Option<String> {
        Some(format!(
            "move limit {} (the Kung Fu lock), an inactivity claim after {} posts",
            crate::time::format_duration(self.settings.move_limit),
            self.settings.inactivity_posts
        ))
    }

    /// `/resign` ends the game for the whole team: asked once.
    fn confirm_first(&self, user: &str, cmd: &Command) -> Option<String> {
        let st = self.state();
        if cmd.name != "resign" || st.winner.is_some() || st.boards.is_none() {
            return None;
        }
        let seat = self.seat_of(user)?;
        Some(format!(
            "Resign for Team {}? This ends the game for your whole team.",
            seat / 3 + 1
        ))
    }

    fn last_change(&self) -> Option<Timestamp> {
        let created = self.settings.created.as_ref().map(|c| c.1);
        match (OnTable::log(self).changed_at(), created) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    fn organiser(&self) -> Option<String> {
        self.settings.created.as_ref().map(|c| c.0.clone())
    }

    /// In the draft, the team on turn; then, on each board, the player to move whose
    /// opponent moved last (before a board's opening move, its first player, since the draft
    /// ended). KFB has no turn limit, so no deadline: the Kung Fu lock only restrains the
    /// player who moved (KFB rules 1.4).
    fn waits(&self, now: Timestamp) -> Vec<game::Wait> {
        if self.finished() {
            return Vec::new();
        }
        let since_start = self.last_change().unwrap_or(now);
        let changed = self.log().changed_entry().unwrap_or(0);
        let wait = |seat: usize, what: String, (since, began): (Timestamp, usize)| game::Wait {
            user: self.users[seat].clone(),
            what,
            since,
            began,
            deadline: None,
            effect: None,
        };
        let st = self.state();
        let Some(boards) = &st.boards else {
            return self
                .draft_pickers()
                .into_iter()
                .map(|s| wait(s, "pick in the draft".to_string(), (since_start, changed)))
                .collect();
        };
        // The last entry in effect that `is` (a pick, a move on a board): when, and where.
        let last = |is: &dyn Fn(&kfb::Action) -> bool| {
            self.log
                .iter()
                .enumerate()
                .rev()
                .find(|(_, e)| e.reverted.is_none() && is(&e.action))
                .map(|(i, e)| (e.time, i))
        };
        let drafted =
            last(&|a| matches!(a, kfb::Action::Pick(_))).unwrap_or((since_start, changed));
        boards
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let board = i + 1;
                if !b.first_moved {
                    return Some(wait(b.first, format!("move on board {board}"), drafted));
                }
                let (first, second) = (&st.players[b.first], &st.players[b.second]);
                // Who moved last is read from the order of the log (a premoved reply can
                // come in the same second as the move it answers), never from the times.
                let (to_move, since) = match (first.last_move, second.last_move) {
                    (Some(_), Some(s)) if first.opponent_moved => (b.first, s),
                    (Some(f), _) => (b.second, f),
                    (None, Some(s)) => (b.first, s),
                    (None, None) => return None,
                };
                // The entry that began it: the board's last move, found in the log's order.
                let on_board = |a: &kfb::Action| {
                    matches!(a, kfb::Action::Move { player, .. } if *player == b.first || *player == b.second)
                };
                let began = last(&on_board).map_or(changed, |(_, i)| i);
                Some(wait(to_move, format!("move on board {board}"), (since, began)))
            })
            .collect()
    }

    /// The two teams (seats 0-2 and 3-5), the winning team first.
    fn placings(&self) -> Option<Vec<crate::rating::Side>> {
        let (winner, _) = self.state().winner.as_ref()?;
        let team = |t: usize| crate::rating::Side {
            players: self
                .users
                .iter()
                .enumerate()
                .filter(|(seat, _)| kfb::team_of(*seat) == t)
                .map(|(_, u)| u.clone())
                .collect(),
            place: if t == *winner { 1 } else { 2 },
        };
        Some(vec![team(0), team(1)])
    }

    fn act(&mut self, caller: &Caller<'_>, cmd: &Command, raw: &str) -> Option<Reply> {
        let result = match cmd.name.as_str() {
            "pick" => {
                return Some(match pick(self, caller, cmd, raw) {
                    Ok(kfb::PickOutcome::Picked(a)) => accepted(a),
                    Ok(kfb::PickOutcome::HandedOver(h)) => handed_over(h),
                    Err(e) => Reply::refused(e),
                })
            }
            "move" => play(self, caller, cmd, raw),
            "give" => give(self, caller, cmd, raw),
            "claim" => seated(self, caller.user)
                .and_then(|seat| self.claim(seat, caller.now, raw).map_err(|e| e.to_string())),
            "resign" => seated(self, caller.user).and_then(|seat| {
                self.resign(seat, caller.now, raw)
                    .map_err(|e| e.to_string())
            }),
            "proxy grant" | "proxy revoke" => proxy(self, caller, cmd, raw),
            _ => return None,
        };
        Some(match result {
            Ok(a) => accepted(a),
            Err(e) => Reply::refused(e),
        })
    }

    fn chat(&mut self, user: &str, now: Timestamp) {
        if let Some(seat) = self.seat_of(user) {
            Game::chat(self, seat, now);
        }
    }

    fn status(&self, now: Timestamp) -> String {
        status_text(self, now)
    }

    fn state_lines(&self, now: Timestamp) -> Vec<String> {
        state_lines(self, now)
    }

    fn offered_moves(&self, a: &Asker<'_>) -> Result<Vec<String>, String> {
        let seat = self
            .acting_seat(a.user, a.board)
            .map_err(|e| e.to_string())?;
        self.check_may_move(seat, a.now)
            .map_err(|e| e.to_string())?;
        Ok(self
            .legal_moves(seat, a.now)
            .into_iter()
            .map(|(_, s)| s)
            .collect())
    }

    fn planned_moves(&self, a: &Asker<'_>) -> Vec<String> {
        self.acting_seat(a.user, a.board)
            .map(|seat| {
                Game::planned_moves(self, seat)
                    .into_iter()
                    .map(|(_, s)| s)
                    .collect()
            })
            .unwrap_or_default()
    }

    fn export(&self) -> String {
        let mut text = kfb::export::bpgn(self);
        for pgn in kfb::export::board_pgns(self) {
            text.push('\n');
            text.push_str(&pgn);
        }
        text
    }

    fn due(&self, after: Timestamp, until: Timestamp) -> Vec<Due> {
        self.lock_expiries(after, until)
            .into_iter()
            .map(|(seat, at)| {
                let p = &self.state().players[seat];
                Due {
                    seat,
                    at,
                    notify: Notify::to(
                        [p.user.clone()],
                        format!(
                            "your lock has expired; you may move on board {}",
                            p.board + 1
                        ),
                    ),
                    limit_of: None,
                }
            })
            .collect()
    }

    fn square_seen(&self, a: &Asker<'_>, square: &str) -> Option<SquareSeen> {
        let seat = self.acting_seat(a.user, a.board).ok()?;
        let st = self.state();
        let b = &st.boards.as_ref()?[st.players[seat].board];
        let found = b.pos.rules().geometry.parse_square(square).ok();
        SquareSeen::of(found.map(|sq| b.pos.piece_at(sq)), |p| {
            let me = &st.players[seat];
            let colour = |c: Option<u8>| c.map_or("?", |c| kfb::COLOUR_NAMES[c as usize % 3]);
            let them = if b.first == seat { b.second } else { b.first };
            Some(SquareSeen::piece(
                b.pos.rules().catalog.def(p.kind).name.to_string(),
                p.side == me.side,
                format!("{} ({})", self.users[them], colour(st.players[them].colour)),
                format!("{} on board {}", colour(me.colour), me.board + 1),
            ))
        })
    }

    fn result(&self) -> Option<String> {
        let (team, how) = self.state().winner.as_ref()?;
        Some(format!("{} wins: {how}", kfb::team_name(*team)))
    }
}

impl game::Conditional for Game {
    fn read_play(&self, play: &str) -> Result<(), String> {
        crate::layer::premove::engine_play(play)
    }

    /// Lines per board: pairs of the board opponent's move and the player's reply; no turns
    /// (a reply is played as soon as its move is, the opponent's move lifting the lock).
    fn premove_seat(&self, user: &str, _now: Timestamp) -> Result<game::PremoveSeat, String> {
        let seat = crate::layer::premove::seated(self.seat_of(user))?;
        let st = self.state();
        let boards = st
            .boards
            .as_ref()
            .ok_or("the draft is still running: conditional moves begin with the boards")?;
        let board = st.players[seat].board;
        let b = boards.get(board).ok_or("no such board")?;
        let opponent = if b.first == seat { b.second } else { b.first };
        let them = vec![(opponent, st.players[opponent].user.clone())];
        Ok(game::PremoveSeat {
            board,
            seat,
            turns: false,
            before: them.clone(),
            between: them,
        })
    }

    fn plays(&self, _now: Timestamp) -> Vec<game::Played> {
        let players = &self.state().players;
        self.log
            .in_effect_at()
            .filter_map(|(index, e)| match &e.action {
                kfb::Action::Move {
                    player, notation, ..
                } => Some(game::Played {
                    index,
                    board: players.get(*player).map_or(0, |p| p.board),
                    seat: *player,
                    notation: notation.clone(),
                }),
                _ => None,
            })
            .collect()
    }
}

impl game::Pictured for Game {
    /// A move, and the pick that completes the draft: the players see the boards they are
    /// about to play (a pick is accepted only while the draft runs, so an accepted pick
    /// after which there are boards is the last one).
    fn pictured(&self, command: &str) -> bool {
        command == "move" || (command == "pick" && self.state().boards.is_some())
    }

    fn picture(&self, thread: &str, now: Timestamp) -> PictureJob {
        let game = self.clone();
        let thread = thread.to_string();
        Box::new(move || kfb_picture(&game, Some(&thread), now).map_err(|e| e.to_string()))
    }
}

impl game::Animated for Game {
    fn animation(&self, opts: &ReplayOptions, _now: Timestamp) -> Result<ReplayJob, String> {
        let board = |snap: &Game, seat: usize| snap.state().players[seat].board;
        let mut frames = Frames::of(
            self,
            opts,
            |e, snap| match &e.action {
                kfb::Action::Move { player, .. } => {
                    opts.board.is_none_or(|b| board(snap, *player) == b)
                }
                // A king passed to a teammate changes the hands the picture shows.
                kfb::Action::Give { from, to, .. } => opts
                    .board
                    .is_none_or(|b| board(snap, *from) == b || board(snap, *to) == b),
                _ => false,
            },
            |e, snap| super::view::replay_still(snap, opts.board, e.time),
            |e, snap| {
                let on = match &e.action {
                    kfb::Action::Move { player, .. } => {
                        format!(" (board {})", board(snap, *player) + 1)
                    }
                    _ => String::new(),
                };
                let what = kfb::describe(&e.action, &self.users);
                format!("#{} {what}{on}", e.number.unwrap_or(0))
            },
        )?;
        let teams = format!(
            "team 1: {} vs team 2: {}",
            self.users[..3].join(", "),
            self.users[3..].join(", ")
        );
        frames.finish(<Self as ThreadGame>::result(self));
        frames.job(format!("{} · {teams}", KIND.title), opts.speed)
    }
}
