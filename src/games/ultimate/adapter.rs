//! Ultimate Chess on the game layer (Ultimate rules 4.9): `/ultimate new`, `/move`, `/concede`,
//! `/offer draw`, `/accept`, `/decline`, `/ultimate concede`, and the shared `/takeback`,
//! `/revert`, `/status`, `/moves` and `/export`.

use crate::games::hint;
use crate::games::ultimate::{
    self, export, square_name, Game, Mode, Request, Seat, Seating, Settings, Stalemate,
};
use crate::layer::game::{
    self, announced, draw_offer, main_text, on_off, Asker, GameKind, NewGame, PictureJob,
    SquareSeen, ThreadGame,
};
use crate::layer::replay::{self as replay, Frames, ReplayJob, ReplayOptions};
use crate::layer::{mention, Caller, Command, Notify, Reply};

use crate::games::ultimate::picture::{parse_cross_square, render_ultimate, CrossPiece, CrossView};
use crate::time::Timestamp;

/// Ultimate Chess in the game layer.
pub static KIND: GameKind = GameKind {
    variant: "ultimate",
    title: "Ultimate Chess",
    group: "ultimate",
    declared: super::commands::ENTRIES,
    create,
    load,
    import: |text| crate::layer::imported(export::import(text)),
    acts_on_leave: false,
};

fn create(caller: &Caller<'_>, cmd: &Command, entropy: u64) -> Result<NewGame, String> {
    let named: Vec<Option<String>> = ["silver", "red", "black", "green"]
        .iter()
        .map(|k| cmd.opt(k).map(mention))
        .collect();
    let seating = match cmd.opt("players") {
        Some(list) if named.iter().all(Option::is_none) => {
            Seating::Players(list.split_whitespace().map(mention).collect())
        }
        Some(_) => {
            return Err(
                "name the seats (silver: red: black: green:) or give players: to seat at random, not both"
                    .into(),
            )
        }
        None => {
            let seats: Vec<String> = named.into_iter().map(Option::unwrap_or_default).collect();
            match <[String; 4]>::try_from(seats) {
                Ok(s) if s.iter().all(|u| !u.is_empty()) => Seating::Named(s),
                _ => return Err(
                    "Ultimate Chess needs four players: silver:@a red:@b black:@c green:@d, or players:@a @b @c @d"
                        .into(),
                ),
            }
        }
    };
    let mut new = ultimate::NewGame::new(seating);
    new.seed = entropy;
    if let Some(m) = cmd.opt("mode") {
        new.mode = Some(Mode::parse(m).ok_or("mode must be standard, conquest or devastation")?);
    }
    if let Some(s) = cmd.opt("stalemate") {
        new.stalemate = Stalemate::parse(s).ok_or("stalemate must be draw or pass")?;
    }
    if let Some(v) = cmd.opt("promote_at_file_end") {
        new.promote_at_file_end = on_off("promote_at_file_end", v)?;
    }
    let timed = (&mut new.move_limit, &mut new.seed, &mut new.position);
    let pace = game::timed_opts(cmd, timed)?;
    let mut game = Game::create(new, caller.user, caller.now).map_err(|e| e.to_string())?;
    game.settings.pace = pace;
    let seats: Vec<String> = Seat::ALL.iter().map(|&s| game.name(s)).collect();
    let text = format!(
        "Ultimate Chess created by {}: {}; {} mode, stalemate {}{}; seed {}\n{}",
        caller.user,
        seats.join(", "),
        game.settings.mode.as_str(),
        game.settings.stalemate.as_str(),
        crate::games::export_common::limit_note(game.settings.move_limit),
        game.settings.seed,
        game.status_text()
    );
    let notify = Notify::to(
        game.users.clone(),
        match game.to_move() {
            Some(s) => format!(
                "you play in a new game of Ultimate Chess; {} moves first",
                game.name(s)
            ),
            None => "you play in a new game of Ultimate Chess".to_string(),
        },
    );
    Ok(announced(game, text, notify))
}

game::loader!(load, |u, s: Settings, l, _| Game::from_log(u, s, l));

/// What each notified user must do now.
fn notify_of(game: &Game, users: &[String]) -> Option<Notify> {
    let mover = game.to_move().map(|s| game.user(s).to_string());
    let asks = users.iter().map(|u| {
        let offered = game.state().draw_offer.is_some();
        let what = if Some(u) == mover.as_ref() {
            let seat = game.seat_of(u).map(|s| game.name(s)).unwrap_or_default();
            let also = if offered {
                "; a draw is offered: /accept or /decline"
            } else {
                ""
            };
            format!("your move in Ultimate Chess ({seat}){also}")
        } else if offered {
            "a draw is offered: /accept or /decline".to_string()
        } else {
            "your turn to act in Ultimate Chess".to_string()
        };
        (u.clone(), what)
    });
    Notify::each(asks)
}

fn accepted(game: &Game, a: ultimate::Accepted) -> Reply {
    let notify = notify_of(game, &a.notify);
    game::accepted(a.number, a.text, notify)
}

fn request(cmd: &Command, caller: &Caller<'_>) -> Option<Result<Request, String>> {
    Some(Ok(match cmd.name.as_str() {
        "move" => match main_text(cmd, "notation") {
            Some(t) => Request::Move(t),
            None => return Some(Err("missing notation (like /move e2-e5)".into())),
        },
        "concede" => Request::Concede {
            to: cmd.opt("to").map(mention),
        },
        "offer" => match draw_offer(cmd) {
            Ok(()) => Request::OfferDraw,
            Err(e) => return Some(Err(e)),
        },
        "accept" => Request::AcceptDraw,
        "decline" => Request::DeclineDraw,
        "ultimate concede" => {
            if !caller.roles.organiser {
                return Some(Err(
                    "only an organiser may concede for a player (after a move-limit overrun)"
                        .into(),
                ));
            }
            let Some(player) = cmd.opt("player") else {
                return Some(Err("missing player:@x".into()));
            };
            Request::OrganiserConcede {
                player: mention(player),
                to: cmd.opt("to").map(mention),
            }
        }
        _ => return None,
    }))
}

/// A refused move's text: the hint for upper-case squares or short algebraic, and the
/// check-first line when the mover's King is attacked.
fn refined_refusal(game: &Game, refusal: &str, written: Option<&str>) -> String {
    let Some(text) = written else {
        return refusal.to_string();
    };
    let pos = game.position();
    let turn = pos.turn();
    let offered = ultimate::notation::legal_texts(pos);
    let check = pos
        .in_check(turn)
        .then(|| pos.king(turn).map(square_name))
        .flatten();
    hint::refined(refusal.to_string(), text, &offered, check.as_deref())
}

/// The picture's view of a game.
pub fn cross_view(game: &Game) -> CrossView {
    let names: [String; 4] = [0, 1, 2, 3].map(|i| game.users[i].clone());
    let mut view = CrossView::empty(names);
    let pos = game.position();
    for (sq, piece) in pos.pieces() {
        if let Some(at) = parse_cross_square(&square_name(sq)) {
            view.set(
                at,
                Some(CrossPiece {
                    letter: piece.kind.letter(),
                    seat: piece.seat.number(),
                    neutral: pos.is_obstacle(sq),
                }),
            );
        }
    }
    view.to_move = game.to_move().map(Seat::number);
    view.in_check = game.in_check().into_iter().map(Seat::number).collect();
    view.defeated = pos.defeated().into_iter().map(Seat::number).collect();
    view.controllers = Seat::ALL
        .iter()
        .filter_map(|&s| pos.controller(s).map(|v| (s.number(), v.number())))
        .filter(|(d, v)| d != v)
        .collect();
    view.last_move = game.last_move().and_then(|(from, to)| {
        Some((
            parse_cross_square(&square_name(from))?,
            parse_cross_square(&square_name(to))?,
        ))
    });
    view.title = format!("Ultimate Chess · #{}", game.next_number() - 1);
    if let Some(result) = game.result_text() {
        // The result as the reply writes it, and the last defeat: who mated whom.
        view.note = match game.last_defeat_text() {
            Some(d) if matches!(game.state().outcome, Some(ultimate::Outcome::Win(_))) => {
                format!("{result} · {d}")
            }
            _ => result,
        };
    } else if game.state().draw_offer.is_some() {
        view.note = "draw offered".into();
    }
    view
}

/// Whether an action changes the board a replay draws: a move, or a concession (the pieces
/// leave, or change hands).
fn drawn(a: &ultimate::Action) -> bool {
    matches!(
        a,
        ultimate::Action::Move { .. } | ultimate::Action::Concede { .. }
    )
}

impl ThreadGame for Game {
    game::seam!(KIND, accepted; Conditional, Pictured, Animated);

    fn limits_text(&self) -> Option<String> {
        Some(game::move_limit_text(self.settings.move_limit))
    }

    fn due(&self, after: Timestamp, until: Timestamp) -> Vec<game::Due> {
        let notice = |s: Seat| (s.index(), self.user(s), self.overrun_text(s));
        game::overrun_in(Game::due(self), (after, until), self.creator(), notice)
    }

    /// `/concede` puts its sender out of the game for good: asked once.
    fn confirm_first(&self, user: &str, cmd: &Command) -> Option<String> {
        if cmd.name != "concede" || self.finished() {
            return None;
        }
        let seat = self.seat_of(user)?;
        if !self.position().active().contains(&seat) {
            return None;
        }
        Some(match cmd.opt("to").map(mention) {
            Some(to) => format!(
                "Concede to {to}? You are out of the game for good and they take over your pieces."
            ),
            None => {
                "Concede? You are out of the game for good and your pieces leave the board.".into()
            }
        })
    }

    /// By elimination order: the winner (or the players among whom it was drawn) first, then
    /// the players defeated, the last defeated before the earlier ones.
    fn placings(&self) -> Option<Vec<crate::rating::Side>> {
        let st = self.state();
        let first: Vec<Seat> = match st.outcome.as_ref()? {
            ultimate::Outcome::Win(s) => vec![*s],
            ultimate::Outcome::Draw { among, .. } => among.clone(),
        };
        let side = |s: Seat, place: u32| crate::rating::Side {
            players: vec![self.user(s).to_string()],
            place,
        };
        let mut out: Vec<crate::rating::Side> = first.iter().map(|&s| side(s, 1)).collect();
        let mut place = first.len() as u32;
        for d in st.defeats.iter().rev() {
            if !first.contains(&d.seat) && out.iter().all(|o| o.players[0] != self.user(d.seat)) {
                place += 1;
                out.push(side(d.seat, place));
            }
        }
        Some(out)
    }

    fn act(&mut self, caller: &Caller<'_>, cmd: &Command, raw: &str) -> Option<Reply> {
        let req = match request(cmd, caller)? {
            Ok(r) => r,
            Err(e) => return Some(Reply::refused(e)),
        };
        let written = match &req {
            Request::Move(t) => Some(t.clone()),
            _ => None,
        };
        Some(match self.apply(caller.user, req, caller.now, raw) {
            Ok(a) => accepted(self, a),
            Err(e @ ultimate::Refusal::Notation(_)) => {
                Reply::refused(refined_refusal(self, &e.to_string(), written.as_deref()))
            }
            Err(e) => Reply::refused(e.to_string()),
        })
    }

    fn status(&self, _now: Timestamp) -> String {
        self.status_text()
    }

    fn state_lines(&self, _now: Timestamp) -> Vec<String> {
        Game::state_lines(self)
    }

    fn offered_moves(&self, a: &Asker<'_>) -> Result<Vec<String>, String> {
        self.legal_moves_for(a.user, None)
            .map_err(|e| e.to_string())
    }

    fn planned_moves(&self, a: &Asker<'_>) -> Vec<String> {
        Game::planned_moves(self, a.user)
    }

    fn export(&self) -> String {
        export::export(self)
    }

    fn square_seen(&self, a: &Asker<'_>, square: &str) -> Option<SquareSeen> {
        let pos = self.position();
        let found = ultimate::parse_square(square).map(|sq| pos.piece_at(sq).map(|p| (sq, p)));
        SquareSeen::of(found, |(sq, p)| {
            let me = self.seat_of(a.user)?;
            let obstacle = pos.is_obstacle(sq);
            Some(SquareSeen::piece(
                p.kind.name().to_string(),
                pos.controller(p.seat) == Some(me) && !obstacle,
                if obstacle {
                    format!("{} (an obstacle now)", p.seat.name())
                } else {
                    p.seat.name().to_string()
                },
                me.name().to_string(),
            ))
        })
    }

    fn result(&self) -> Option<String> {
        self.result_text()
    }

    fn awaited(&self, _now: Timestamp) -> Option<Vec<(String, String)>> {
        let mut v = Vec::new();
        if let Some(s) = self.to_move() {
            v.push((self.user(s).to_string(), "move".to_string()));
            for w in self.draw_offer_waiting() {
                v.push((
                    self.user(w).to_string(),
                    "answer the draw offer".to_string(),
                ));
            }
        }
        Some(v)
    }
}

impl game::Conditional for Game {
    fn read_play(&self, play: &str) -> Result<(), String> {
        crate::layer::premove::engine_play(play)
    }

    /// Lines in turns: a play for each seat still in the game that moves before the player,
    /// then the reply.
    fn premove_seat(&self, user: &str, _now: Timestamp) -> Result<game::PremoveSeat, String> {
        let seat = crate::layer::premove::seated(self.seat_of(user))?;
        let active = self.position().active();
        if !active.contains(&seat) {
            return Err("you are out of the game".into());
        }
        let to_move = self.to_move().ok_or("the game is over")?;
        let others = |from: Seat| {
            let mut v = Vec::new();
            let mut s = from;
            for _ in 0..4 {
                if s == seat {
                    break;
                }
                if active.contains(&s) {
                    v.push((s.index(), self.name(s)));
                }
                s = s.next();
            }
            v
        };
        Ok(game::PremoveSeat {
            board: 0,
            seat: seat.index(),
            turns: true,
            before: others(to_move),
            between: others(seat.next()),
        })
    }

    fn plays(&self, _now: Timestamp) -> Vec<game::Played> {
        self.log
            .in_effect_at()
            .filter_map(|(index, e)| match &e.action {
                ultimate::Action::Move { seat, notation } => Some(game::Played {
                    index,
                    board: 0,
                    seat: seat.index(),
                    notation: notation.clone(),
                }),
                _ => None,
            })
            .collect()
    }
}

impl game::Pictured for Game {
    fn picture(&self, _thread: &str, now: Timestamp) -> PictureJob {
        let mut view = cross_view(self);
        if let Some(note) = self.away.picture_note(now) {
            view.note = if view.note.is_empty() {
                note
            } else {
                format!("{} · {note}", view.note)
            };
        }
        game::picture_job(view, render_ultimate)
    }
}

impl game::Animated for Game {
    fn animation(&self, opts: &ReplayOptions, _now: Timestamp) -> Result<ReplayJob, String> {
        let frames = Frames::one_board(
            self,
            opts,
            drawn,
            |_, snap| cross_view(snap),
            |e, _| replay::numbered(e, &ultimate::describe(&e.action, &self.users)),
        )?;
        let header = replay::header(KIND.title, &self.users);
        frames.ended(self.result_text(), header, opts.speed)
    }
}
