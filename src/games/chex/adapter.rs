//! Chex on the game layer (Chex rules 5.10): `/chex new`, `/draw`, `/place`, `/move`,
//! `/offer draw`, `/accept`, `/decline`, `/resign`, `/chex resign`, and the shared
//! `/takeback`, `/revert`, `/status`, `/moves` and `/export`; the console's `!stack`.

use crate::games::chex::{
    self, export, parse_turn, DrawMode, Game, Request, Settings, Side, StalemateMode,
};
use crate::layer::game::{
    self, announced, draw_offer, main_text, Asker, GameKind, NewGame, PictureJob, ThreadGame,
};
use crate::layer::replay::{self as replay, Frames, ReplayJob, ReplayOptions};
use crate::layer::{mention, Caller, Command, Notify, Reply};
use std::sync::Arc;

use super::picture::ChexView;
use crate::time::Timestamp;

/// Chex in the game layer.
pub static KIND: GameKind = GameKind {
    variant: "chex",
    title: "Chex",
    group: "chex",
    declared: super::commands::ENTRIES,
    create,
    load,
    import: |text| crate::layer::imported(export::import(text)),
    acts_on_leave: false,
};

fn create(caller: &Caller<'_>, cmd: &Command, entropy: u64) -> Result<NewGame, String> {
    let (white, black) = match (cmd.opt("white"), cmd.opt("black"), cmd.opt("players")) {
        (Some(w), Some(b), None) => (mention(w), mention(b)),
        (None, None, Some(list)) => {
            let v: Vec<String> = list.split_whitespace().map(mention).collect();
            match v.as_slice() {
                [w, b] => (w.clone(), b.clone()),
                _ => return Err("players: takes two players, White first: players:@a @b".into()),
            }
        }
        _ => {
            return Err(
                "Chex needs two players: white:@a black:@b (or players:@a @b, White first)".into(),
            )
        }
    };
    let mut new = chex::NewGame::new(&white, &black, entropy);
    if let Some(m) = cmd.opt("draw_mode") {
        new.draw_mode = DrawMode::parse(m).ok_or("draw_mode must be reveal or blind")?;
    }
    if let Some(s) = cmd.opt("stalemate") {
        new.stalemate = StalemateMode::parse(s).ok_or("stalemate must be declare or offer")?;
    }
    if let Some(b) = cmd.opt("max_board") {
        new.max_board = b
            .trim()
            .parse()
            .map_err(|_| "max_board must be a whole number from 8 to 26".to_string())?;
    }
    let pace = game::timed_opts(cmd, (&mut new.move_limit, &mut new.seed, &mut new.position))?;
    let mut game = Game::create(new, caller.user, caller.now).map_err(|e| e.to_string())?;
    game.settings.pace = pace;
    let text = format!(
        "Chex created by {}: {}, {}; draw_mode {}, stalemate {}, board limit {}×{}{}\nSeed hash (SHA-256 of the seed's decimal text): {}\n{}",
        caller.user,
        game.name(Side::White),
        game.name(Side::Black),
        game.settings.draw_mode.as_str(),
        game.settings.stalemate.as_str(),
        game.settings.max_board,
        game.settings.max_board,
        crate::games::export_common::limit_note(game.settings.move_limit),
        game.settings.seed_hash,
        game.turn_line()
    );
    let notify = Notify::to(
        game.users.clone(),
        format!(
            "you play in a new game of Chex; {} plays first",
            game.name(game.position().to_move)
        ),
    );
    Ok(announced(game, text, notify))
}

game::loader!(load, |u, s: Settings, l, _| Game::from_log(u, s, l));

fn accepted(game: &Game, a: chex::Accepted) -> Reply {
    let asks = a.notify.iter().map(|u| {
        let side = game.side_of(u);
        let offered = game.state().draw_offer.is_some_and(|by| Some(by) != side);
        let what = match (game.to_move(), offered) {
            (Some(s), false) if Some(s) == side => format!(
                "your turn in Chex ({}, board #{})",
                s.name(),
                game.board_number()
            ),
            (Some(s), true) if Some(s) == side => format!(
                "your turn in Chex ({}, board #{}); a draw is offered: /accept or /decline",
                s.name(),
                game.board_number()
            ),
            (_, true) => "a draw is offered in Chex: /accept or /decline".to_string(),
            _ => "see the Chex thread".to_string(),
        };
        (u.clone(), what)
    });
    let notify = Notify::each(asks);
    game::accepted(a.number, a.text, notify)
}

fn turn_of(cmd: &Command) -> Result<Option<u32>, String> {
    match cmd.opt("turn") {
        None => Ok(None),
        Some(t) => parse_turn(t)
            .map(Some)
            .ok_or_else(|| format!("turn:{t} is not a board number (like turn:12)")),
    }
}

fn request(cmd: &Command, caller: &Caller<'_>) -> Option<Result<Request, String>> {
    let turn = match turn_of(cmd) {
        Ok(t) => t,
        Err(e) => return Some(Err(e)),
    };
    Some(Ok(match cmd.name.as_str() {
        "draw" => Request::Draw {
            square: main_text(cmd, "square"),
            turn,
        },
        "place" => match main_text(cmd, "square") {
            Some(square) => Request::Place { square, turn },
            None => return Some(Err("missing square (like /place square:c3)".into())),
        },
        "move" => match main_text(cmd, "notation") {
            Some(text) => Request::Move { text, turn },
            None => return Some(Err("missing notation (like /move Nb3-d4)".into())),
        },
        "offer" => match draw_offer(cmd) {
            Ok(()) => Request::OfferDraw,
            Err(e) => return Some(Err(e)),
        },
        "accept" => Request::AcceptDraw,
        "decline" => Request::DeclineDraw,
        "resign" => Request::Resign,
        "chex resign" => {
            if !caller.roles.organiser {
                return Some(Err(
                    "only an organiser may resign for a player (after a move-limit overrun)".into(),
                ));
            }
            match cmd.opt("player") {
                Some(p) => Request::OrganiserResign { player: mention(p) },
                None => return Some(Err("missing player:@x".into())),
            }
        }
        _ => return None,
    }))
}

/// Whether an action changes the board a replay draws: a draw, a placement, a move.
fn drawn(a: &chex::Action) -> bool {
    matches!(
        a,
        chex::Action::Draw { .. } | chex::Action::Place { .. } | chex::Action::Move { .. }
    )
}

impl ThreadGame for Game {
    game::seam!(KIND, accepted; Pictured, Animated);

    fn limits_text(&self) -> Option<String> {
        Some(game::move_limit_text(self.settings.move_limit))
    }

    fn due(&self, after: Timestamp, until: Timestamp) -> Vec<game::Due> {
        let notice = |s: Side| (s.index(), self.user(s), self.overrun_text(s));
        game::overrun_in(Game::due(self), (after, until), self.creator(), notice)
    }

    /// None: each turn begins with a random draw (Chex rules 5.2).
    fn conditional(&self) -> Result<&dyn game::Conditional, String> {
        Err("Chex has no conditional moves: each turn begins with a random draw, so no reply can be known before it".into())
    }

    /// `/resign` ends the game: asked once.
    fn confirm_first(&self, user: &str, cmd: &Command) -> Option<String> {
        if cmd.name != "resign" || Game::finished(self) || !self.users.iter().any(|u| u == user) {
            return None;
        }
        Some("Resign? This ends the game: your opponent wins.".into())
    }

    /// The side to act: a draw and its placing, or a move (Chex rules 5.2).
    fn waits(&self, now: Timestamp) -> Vec<game::Wait> {
        // Only actions change who is to move: the move limit merely announces an overrun.
        let asked: Vec<(String, String)> = self
            .to_move()
            .map(|s| (self.user(s).to_string(), "your turn".to_string()))
            .into_iter()
            .collect();
        game::waiting(self, |_| asked.clone(), now)
    }

    fn placings(&self) -> Option<Vec<crate::rating::Side>> {
        use crate::games::chex::Outcome;
        let places = match self.state().outcome.as_ref()? {
            Outcome::Win { side, .. } if side.index() == 0 => [1, 2],
            Outcome::Win { .. } => [2, 1],
            Outcome::Draw(_) => [1, 1],
        };
        Some(crate::rating::sides_alone(&self.users, places))
    }

    fn act(&mut self, caller: &Caller<'_>, cmd: &Command, raw: &str) -> Option<Reply> {
        let req = match request(cmd, caller)? {
            Ok(r) => r,
            Err(e) => return Some(Reply::refused(e)),
        };
        Some(match self.apply(caller.user, req, caller.now, raw) {
            Ok(a) => accepted(self, a),
            Err(e) => Reply::refused(e.to_string()),
        })
    }

    fn console(&mut self, words: &[&str], now: Timestamp) -> Option<Vec<String>> {
        match words {
            ["stack", side, letters @ ..] => {
                let Some(side) = Side::parse(side) else {
                    return Some(vec![
                        "error: write !stack <white|black> <letters, top first>".into(),
                    ]);
                };
                let req = Request::Stack {
                    side,
                    letters: letters.concat(),
                };
                let raw = format!("!{}", words.join(" "));
                Some(match self.apply("console", req, now, &raw) {
                    Ok(a) => vec![a.text],
                    Err(e) => vec![format!("error: {e}")],
                })
            }
            _ => None,
        }
    }

    fn status(&self, _now: Timestamp) -> String {
        self.status_text()
    }

    fn state_lines(&self, _now: Timestamp) -> Vec<String> {
        Game::state_lines(self)
    }

    fn offered_moves(&self, a: &Asker<'_>) -> Result<Vec<String>, String> {
        self.legal_for(a.user).map_err(|e| e.to_string())
    }

    fn planned_moves(&self, a: &Asker<'_>) -> Vec<String> {
        self.planned_for(a.user)
    }

    fn export(&self) -> String {
        export::export(self)
    }

    fn square_seen(&self, a: &Asker<'_>, square: &str) -> Option<crate::layer::game::SquareSeen> {
        use crate::layer::game::SquareSeen;
        let found = self.frame().parse(square).map(|sq| self.position().at(sq));
        SquareSeen::of(found, |p| {
            let me = self.side_of(a.user)?;
            Some(SquareSeen::piece(
                p.kind.name().to_string(),
                p.side == me,
                p.side.name().to_string(),
                me.name().to_string(),
            ))
        })
    }

    fn result(&self) -> Option<String> {
        let o = self.state().outcome.as_ref()?;
        Some(crate::games::chex::outcome_text(&self.users, o))
    }
}

impl game::Pictured for Game {
    fn pictured(&self, command: &str) -> bool {
        // Every board action, and the board reposted after a takeback or a revert (§5.5).
        matches!(command, "move" | "draw" | "place" | "takeback" | "revert")
    }

    fn picture(&self, _thread: &str, now: Timestamp) -> PictureJob {
        let mut view = crate::games::chex::picture::chex_view(self);
        if let Some(note) = self.away.picture_note(now) {
            view.status = format!("{} · {note}", view.status);
        }
        game::picture_job(view, crate::games::chex::picture::render_chex)
    }
}

impl game::Animated for Game {
    fn animation(&self, opts: &ReplayOptions, _now: Timestamp) -> Result<ReplayJob, String> {
        // A move's caption names it in the labels its frame draws: who, by action number.
        let mut who: std::collections::HashMap<u32, String> = std::collections::HashMap::new();
        let mut frames = Frames::one_board(
            self,
            opts,
            drawn,
            |_, snap| super::picture::chex_view(snap),
            |e, _| {
                let what = chex::describe(&e.action, &self.users);
                let n = e.number.unwrap_or(0);
                if let chex::Action::Place { notation, .. } | chex::Action::Move { notation, .. } =
                    &e.action
                {
                    if let Some(w) = what.strip_suffix(notation.as_str()) {
                        who.insert(n, format!("#{n} {}", w.trim_end()));
                    }
                }
                format!("#{n} {what}")
            },
        )?;
        frames.finish(<Self as ThreadGame>::result(self));
        // One frame for the whole replay, so the absolute squares stand still (rules 5.5a).
        let mut frame: Option<(i32, i32, i32, i32)> = None;
        for s in frames.stills_mut() {
            let Some(v) = s.as_any().downcast_ref::<ChexView>() else {
                continue;
            };
            let (x0, y0) = v.origin;
            let (x1, y1) = (x0 + v.files as i32, y0 + v.ranks as i32);
            frame = Some(match frame {
                None => (x0, y0, x1, y1),
                Some((a, b, c, d)) => (a.min(x0), b.min(y0), c.max(x1), d.max(y1)),
            });
        }
        if let Some((x0, y0, x1, y1)) = frame {
            for v in frames.stills_mut() {
                if let Some(c) = v.as_any().downcast_ref::<ChexView>() {
                    *v = Arc::new(c.reframed((x0, y0), (x1 - x0) as u32, (y1 - y0) as u32));
                }
            }
        }
        for (n, f) in frames.frames_mut() {
            let (Some(w), Some(v)) = (who.get(&n), f.still.as_any().downcast_ref::<ChexView>())
            else {
                continue;
            };
            let Some(text) = &v.last_text else { continue };
            // The rest of the caption (a mark, the result) stays.
            let rest = f
                .caption
                .find(" (premove)")
                .or_else(|| f.caption.find(" · "))
                .map_or(String::new(), |i| f.caption[i..].to_string());
            f.caption = format!("{w} {text}{rest}");
        }
        frames.job(replay::header(KIND.title, &self.users), opts.speed)
    }
}
