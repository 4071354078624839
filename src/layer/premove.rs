//! Conditional moves: "if they play X, I play Y" (`/premove`, `/premoves`), written once for
//! every game whose [`Conditional::premove_seat`] says where a player sits.
//!
//! A *line* is a list of rounds; a round is one condition per seat that plays before the
//! author (a play, or `*` for any) and the author's reply. In Kung Fu Bughouse a round is a
//! pair on the author's board (the opponent's move, the reply); in Ultimate and Party Chess it
//! is the plays of every seat before the author's turn, then the reply. `/premove now:<move>`
//! is a line of one round without conditions: played as soon as the author may move.
//!
//! A line's progress is read from the game's plays
//! ([`Conditional::plays`](super::game::Conditional::plays)), never kept beside them: it
//! remembers how many plays its board had when it last looked and the log entry of the last one, so a takeback or a revert touching that board (fewer plays, or another entry
//! in that place) drops it. Conditions are matched by the seat that actually played (a Party
//! check that reorders the Play List changes nothing), by squares, the piece of a drop and a
//! promotion ([`key`]: `Nb1-c3`, `b1-c3` and `Nb1xc3+` are one play). A reply is played through
//! the game's own `/move` as the author, so it is checked against the position as it is then;
//! one the game refuses is dropped with a note the author reads in `/premoves`, and told them
//! at once by a new message that pings them ([`Fired::played`] false).
//!
//! A line is read when stored (issues 53, 54): every play must read in the game's notation
//! ([`Conditional::read_play`]), name squares of its board and be at most [`MAX_PLAY`]
//! characters; two lines may not begin with the same plays. A `now:` on one's own turn is
//! played at once as `/move` ([`now_due`]). Lines stored before these checks that fail them
//! are dropped with a note when next read.
//!
//! The book of lines is stored with the game (its `premoves` column), written in the same
//! commit as the actions that advance it.

use serde::{Deserialize, Serialize};

use super::game::{Asker, Played, PremoveSeat};
use super::{Caller, Command, Reply, Roles, ThreadGame};
use crate::layer::Notify;
use crate::time::Timestamp;

/// Lines a player may keep on one board.
pub const MAX_LINES: usize = 10;
/// Rounds (pairs, in Kung Fu Bughouse) in one line.
pub const MAX_ROUNDS: usize = 10;
/// The seat of a user who sets conditional moves, if they have one.
///
/// # Errors
/// They have none: only a game's players set lines.
pub fn seated<S>(seat: Option<S>) -> Result<S, String> {
    seat.ok_or_else(|| {
        "you do not play in this game: only its players set conditional moves".to_string()
    })
}

/// Whether `play` reads in the engine's notation (`e2-e4`, `Nb1xc3+`, `0-0`), the position
/// aside ([`Conditional::read_play`] of a game played in it).
///
/// # Errors
/// Why it does not read.
pub fn engine_play(play: &str) -> Result<(), String> {
    crate::engine::notation::parse_text(play)
        .map(|_| ())
        .map_err(|e| e.to_string())
}
/// Replies played from lines after one action, at most (a guard: each is a real move).
const MAX_FIRED: usize = 64;

/// Every player's conditional moves in one game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Book {
    /// The lines, in the order they were set (the first matching line of a player wins).
    #[serde(default)]
    pub lines: Vec<Line>,
    /// Notes for players on lines dropped, unread: (user, text).
    #[serde(default)]
    pub notes: Vec<(String, String)>,
    /// The lines left when the game ended (for its export).
    #[serde(default)]
    pub left: Vec<Line>,
}

/// One player's line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// Its author.
    pub author: String,
    /// The board it is for.
    pub board: usize,
    /// The author's seat.
    pub seat: usize,
    /// Whether the board plays in turns (see [`PremoveSeat::turns`]).
    pub turns: bool,
    /// The plays on the board when the line last looked, and the log entry of the last one.
    pub base: usize,
    /// See `base`.
    pub anchor: Option<usize>,
    /// The rounds still to come.
    pub rounds: Vec<Round>,
    /// As typed (for `/premoves`).
    pub text: String,
    /// A `now:` move.
    #[serde(default)]
    pub now: bool,
}

/// One round of a line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// What each seat before the author plays.
    pub conds: Vec<Cond>,
    /// The author's reply.
    pub reply: String,
}

/// A seat's play a round waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cond {
    /// The seat.
    pub seat: usize,
    /// Its name (`Black (bea)`).
    pub name: String,
    /// The play, or `None` for any (`*`).
    pub play: Option<String>,
    /// Played as foreseen.
    pub done: bool,
}

/// A reply played from a line: its author and the game's reply to it; or a reply that could
/// not be played when its line matched (`reply` refused: the message to its author).
#[derive(Clone, Debug)]
pub struct Fired {
    /// Whose line it was.
    pub author: String,
    /// The game's reply, marked `(premove)`; refused, the words to the author of why not.
    pub reply: Reply,
}

impl Fired {
    /// Whether the reply was played.
    pub fn played(&self) -> bool {
        self.reply.ok == Some(true)
    }

    /// The message pinging the author of a reply that could not be played (`@a: your
    /// conditional reply N@f6 was not played: …`).
    fn failure_text(&self) -> String {
        format!("@{}: {}", self.author, self.reply.text)
    }
}

impl Book {
    /// Read from its stored JSON (empty: no lines).
    ///
    /// # Errors
    /// It does not decode.
    pub fn from_json(text: &str) -> Result<Book, serde_json::Error> {
        if text.trim().is_empty() {
            return Ok(Book::default());
        }
        serde_json::from_str(text)
    }

    /// As stored: empty for a book with nothing in it.
    pub fn to_json(&self) -> String {
        if self.lines.is_empty() && self.notes.is_empty() && self.left.is_empty() {
            return String::new();
        }
        serde_json::to_string(self).unwrap_or_default()
    }

    fn note(&mut self, user: &str, text: String) {
        self.notes.push((user.to_string(), text));
    }
}

/// A play as lines compare it: its squares (and promotion), or the piece and square of a
/// drop, or the word (`pass`, castling as `00`), in lower case; checks, captures and
/// annotations left out.
pub fn key(play: &str) -> String {
    let t = play.trim().to_lowercase();
    let t = t.trim_end_matches(['+', '#', '!', '?']);
    if let Some((piece, rest)) = t.split_once('@') {
        let piece: String = piece.chars().filter(char::is_ascii_alphabetic).collect();
        let sq = squares(rest).into_iter().next().unwrap_or_default();
        return format!("{piece}@{sq}");
    }
    let sqs = squares(t);
    if sqs.len() >= 2 {
        let promo: String = t
            .split_once('=')
            .map(|(_, p)| p.chars().filter(char::is_ascii_alphabetic).collect())
            .unwrap_or_default();
        let mut k = sqs.join("-");
        if !promo.is_empty() {
            k.push('=');
            k.push_str(&promo);
        }
        return k;
    }
    t.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| if c == 'o' { '0' } else { c })
        .collect()
}

/// The squares named in a play, in order: a letter followed at once by digits.
fn squares(t: &str) -> Vec<String> {
    let b = t.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_lowercase() && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            out.push(t[i..j].to_string());
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The plays of a line as typed, one per word (an army in brackets after a drop, `P@e6
/// (nutty)`, stays with it; so does a Party Demon promotion after its move, `Rc3-c9 Di8=H`).
fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in text.split_whitespace() {
        match out.last_mut() {
            Some(last) if w.starts_with('(') => last.push_str(w),
            Some(last) if demon_promotion(w) => {
                last.push(' ');
                last.push_str(w);
            }
            _ => out.push(w.to_string()),
        }
    }
    out
}

/// `Di8=H`: a Demon promotion, written after the move it follows.
fn demon_promotion(w: &str) -> bool {
    let mut cs = w.chars();
    matches!(cs.next(), Some('D' | 'd'))
        && cs.next().is_some_and(|c| c.is_ascii_lowercase())
        && cs.next().is_some_and(|c| c.is_ascii_digit())
        && w.contains('=')
}

/// The longest play a line or `now:` takes, in characters.
pub const MAX_PLAY: usize = 40;
/// The longest line, in characters.
pub const MAX_LINE: usize = 1000;

/// Why `w` is no play of this game, as stored lines are checked: too long, not in the game's
/// notation ([`Conditional::read_play`]), or naming a square that is not on the board.
fn unreadable(game: &dyn ThreadGame, user: &str, now: Timestamp, w: &str) -> Option<String> {
    if w.chars().count() > MAX_PLAY {
        return Some(format!("a play is at most {MAX_PLAY} characters"));
    }
    if !looks_like_play(w) {
        return Some(format!("{w} is not a play"));
    }
    if let Err(why) = game.conditional().and_then(|c| c.read_play(w)) {
        return Some(format!("{w} does not read as a play: {why}"));
    }
    let asker = Asker::new(user, now);
    let lower = w.to_lowercase();
    let head = lower
        .split_once(['(', ' '])
        .map_or(lower.as_str(), |(h, _)| h);
    for sq in squares(head) {
        if game.square_seen(&asker, &sq) == Some(super::game::SquareSeen::OffBoard) {
            return Some(format!("{w}: {sq} is not a square of the board"));
        }
    }
    None
}

/// The first unreadable play of rounds (conditions and replies), with why.
fn first_unreadable(
    game: &dyn ThreadGame,
    user: &str,
    now: Timestamp,
    rounds: &[Round],
) -> Option<String> {
    rounds.iter().find_map(|r| {
        r.conds
            .iter()
            .filter_map(|c| c.play.as_deref())
            .chain(std::iter::once(r.reply.as_str()))
            .find_map(|w| unreadable(game, user, now, w))
    })
}

/// The move of `/premove now:<move>` when it is the caller's turn (to be played at once, as
/// `/move` would); `Ok(None)` when there is none or it is not their turn; `Err` a refusal
/// of a `now:` that does not read.
///
/// # Errors
/// The refusal.
pub fn now_due(
    game: &dyn ThreadGame,
    caller: &Caller<'_>,
    cmd: &Command,
) -> Result<Option<String>, String> {
    let Some(m) = cmd.opt("now").map(str::trim) else {
        return Ok(None);
    };
    if game.finished()
        || game
            .conditional()
            .and_then(|c| c.premove_seat(caller.user, caller.now))
            .is_err()
    {
        return Ok(None);
    }
    if let Some(why) = now_unreadable(game, caller, m) {
        return Err(why);
    }
    Ok(may_play(game, caller.user, caller.now).then(|| m.to_string()))
}

fn now_unreadable(game: &dyn ThreadGame, caller: &Caller<'_>, m: &str) -> Option<String> {
    if m.is_empty() {
        return Some("now: takes the move to play as soon as you may, like Ng1-f3".into());
    }
    unreadable(game, caller.user, caller.now, m)
        .map(|why| format!("{why}; now: takes the move to play as soon as you may, like Ng1-f3"))
}

/// Whether a word reads as a play at all (a square, or a word like `pass` or `0-0`).
fn looks_like_play(w: &str) -> bool {
    !key(w).is_empty()
}

fn names(seats: &[(usize, String)]) -> String {
    let v: Vec<&str> = seats.iter().map(|(_, n)| n.as_str()).collect();
    v.join(", ")
}

/// The shape of a line for a seat, as the refusal of a wrong one explains it.
fn shape(seat: &PremoveSeat) -> String {
    if seat.turns {
        format!(
            "a line is a play for each seat that plays before you ({}; * for any play), then your reply; more rounds may follow ({} then you)",
            names(&seat.before),
            names(&seat.between)
        )
    } else {
        "a line is pairs: their move, then your reply (e7-e5 Ng1-f3 d7-d6 d2-d4)".to_string()
    }
}

/// Reads `text` into rounds for `seat`.
fn read_line(seat: &PremoveSeat, text: &str) -> Result<Vec<Round>, String> {
    let ws = words(text);
    if ws.is_empty() {
        return Err(shape(seat));
    }
    if let Some(w) = ws.iter().find(|w| *w != "*" && !looks_like_play(w)) {
        return Err(format!("{w} is not a play; {}", shape(seat)));
    }
    let mut rounds = Vec::new();
    let mut rest = &ws[..];
    let mut who = &seat.before;
    while !rest.is_empty() {
        if rest.len() < who.len() + 1 {
            return Err(shape(seat));
        }
        let (conds, tail) = rest.split_at(who.len());
        let reply = &tail[0];
        if reply == "*" {
            return Err("your reply must be a play, not *".into());
        }
        rounds.push(Round {
            conds: who
                .iter()
                .zip(conds)
                .map(|((s, n), w)| Cond {
                    seat: *s,
                    name: n.clone(),
                    play: (w != "*").then(|| w.clone()),
                    done: false,
                })
                .collect(),
            reply: reply.clone(),
        });
        rest = &tail[1..];
        who = &seat.between;
    }
    if rounds.len() > MAX_ROUNDS {
        return Err(format!("a line has at most {MAX_ROUNDS} rounds"));
    }
    Ok(rounds)
}

/// The plays on one board.
fn on_board(plays: &[Played], board: usize) -> Vec<&Played> {
    plays.iter().filter(|p| p.board == board).collect()
}

/// Where a line starts reading the board's plays: now.
fn mark(line: &mut Line, plays: &[Played]) {
    let on = on_board(plays, line.board);
    line.base = on.len();
    line.anchor = on.last().map(|p| p.index);
}

impl Line {
    /// A line by `author` in `seat`, reading the board's plays from now on.
    fn new(
        author: &str,
        seat: &PremoveSeat,
        rounds: Vec<Round>,
        text: String,
        now: bool,
        plays: &[Played],
    ) -> Line {
        let mut line = Line {
            author: author.to_string(),
            board: seat.board,
            seat: seat.seat,
            turns: seat.turns,
            base: 0,
            anchor: None,
            rounds,
            text,
            now,
        };
        mark(&mut line, plays);
        line
    }
}

/// `/premove line:<plays> | now:<move> | clear`: the reply (private), the book changed.
pub fn command(
    book: &mut Book,
    game: &dyn ThreadGame,
    caller: &Caller<'_>,
    cmd: &Command,
) -> Reply {
    let user = caller.user;
    let now = caller.now;
    let clear = cmd
        .positional
        .iter()
        .any(|w| w.eq_ignore_ascii_case("clear"))
        || cmd.opt("clear").and_then(super::game::switch) == Some(true);
    if clear {
        let before = book.lines.len();
        book.lines.retain(|l| l.author != user);
        let gone = before - book.lines.len();
        return private(if gone == 0 {
            "you had no conditional moves in this game".to_string()
        } else {
            format!("your {} dropped", count(gone, "conditional move"))
        });
    }
    if game.finished() {
        return Reply::refused("the game is over");
    }
    let (seat, plays) = match game
        .conditional()
        .and_then(|c| Ok((c.premove_seat(user, now)?, c.plays(now))))
    {
        Ok(s) => s,
        Err(why) => return Reply::refused(why),
    };
    if let Some(m) = cmd.opt("now") {
        let m = m.trim();
        if let Some(why) = now_unreadable(game, caller, m) {
            return Reply::refused(why);
        }
        book.lines
            .retain(|l| !(l.author == user && l.board == seat.board && l.now));
        let rounds = vec![Round {
            conds: Vec::new(),
            reply: m.to_string(),
        }];
        let line = Line::new(user, &seat, rounds, m.to_string(), true, &plays);
        book.lines.push(line);
        return private(format!(
            "{m} will be played for you as soon as you may move (checked then); /premove clear drops it"
        ));
    }
    let Some(text) = cmd.opt("line").map(str::trim).filter(|t| !t.is_empty()) else {
        return Reply::refused(format!(
            "say line:<plays>, now:<move> or clear; {}",
            shape(&seat)
        ));
    };
    if seat.turns && seat.before.is_empty() {
        return Reply::refused(
            "it is your turn now: play with /move (a line answers the plays before your next turn)",
        );
    }
    if text.chars().count() > MAX_LINE {
        return Reply::refused(format!("a line is at most {MAX_LINE} characters"));
    }
    let rounds = match read_line(&seat, text) {
        Ok(r) => r,
        Err(why) => return Reply::refused(why),
    };
    if let Some(why) = first_unreadable(game, user, now, &rounds) {
        return Reply::refused(why);
    }
    let mine: Vec<&Line> = book
        .lines
        .iter()
        .filter(|l| l.author == user && l.board == seat.board && !l.now)
        .collect();
    if mine.iter().any(|l| l.rounds == rounds) {
        return private("you have this line already");
    }
    let opening = |r: &[Round]| -> Option<Vec<Option<String>>> {
        r.first()
            .map(|r| r.conds.iter().map(|c| c.play.as_deref().map(key)).collect())
    };
    // Lines that begin with the same plays (not `*` alone) answer them twice: the later one
    // is refused.
    let first = opening(&rounds).filter(|o| o.iter().any(Option::is_some));
    if let Some(i) = mine
        .iter()
        .position(|l| first.is_some() && opening(&l.rounds) == first)
    {
        return Reply::refused(format!(
            "your line {} begins with the same play already ({}): one reply to a play; /premove clear drops your lines",
            i + 1,
            describe(mine[i])
        ));
    }
    if mine.len() >= MAX_LINES {
        return Reply::refused(format!(
            "you have {MAX_LINES} lines on this board already; /premove clear drops them"
        ));
    }
    let n = mine.len() + 1;
    let line = Line::new(user, &seat, rounds, words(text).join(" "), false, &plays);
    let said = describe(&line);
    book.lines.push(line);
    private(format!("line {n} stored: {said}"))
}

/// A private accepted reply.
fn private(text: impl Into<String>) -> Reply {
    Reply {
        ephemeral: true,
        ..Reply::ok(text)
    }
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// A line in words: `if Black (bea) plays e7-e5, you play Ng1-f3; then …`.
fn describe(line: &Line) -> String {
    if line.now {
        let m = line.rounds.first().map_or("", |r| r.reply.as_str());
        return format!("{m} as soon as you may move");
    }
    let parts: Vec<String> = line
        .rounds
        .iter()
        .map(|r| {
            let conds: Vec<String> = r
                .conds
                .iter()
                .map(|c| {
                    let what = c.play.as_deref().unwrap_or("anything");
                    if c.done {
                        format!("{} played {what}", c.name)
                    } else {
                        format!("{} plays {what}", c.name)
                    }
                })
                .collect();
            if conds.is_empty() {
                format!("you play {}", r.reply)
            } else {
                format!("if {}, you play {}", conds.join(" and "), r.reply)
            }
        })
        .collect();
    parts.join("; then ")
}

/// `/premoves`: the caller's lines and the notes on those dropped (read once).
pub fn list(book: &mut Book, user: &str) -> Reply {
    let mut out = Vec::new();
    let mine: Vec<&Line> = book.lines.iter().filter(|l| l.author == user).collect();
    if mine.is_empty() {
        out.push("you have no conditional moves in this game".to_string());
    } else {
        out.push(format!("your {}:", count(mine.len(), "conditional move")));
        for (i, l) in mine.iter().enumerate() {
            let board = if l.turns {
                String::new()
            } else {
                format!(" (board {})", l.board + 1)
            };
            out.push(format!("{}.{board} {}", i + 1, describe(l)));
        }
    }
    let notes: Vec<String> = book
        .notes
        .iter()
        .filter(|(u, _)| u == user)
        .map(|(_, t)| t.clone())
        .collect();
    if !notes.is_empty() {
        out.push("dropped since you last looked:".to_string());
        out.extend(notes);
        book.notes.retain(|(u, _)| u != user);
    }
    private(out.join("\n"))
}

/// What one play does to a line.
enum Step {
    /// Read on.
    Go,
    /// The line is done (its last reply played).
    Done,
    /// The line no longer applies, and why.
    Dead(String),
}

fn step(line: &mut Line, p: &Played) -> Step {
    let turns = line.turns;
    let Some(r) = line.rounds.first_mut() else {
        return Step::Done;
    };
    if p.seat == line.seat {
        let met = r
            .conds
            .iter()
            .all(|c| c.done || (turns && c.play.is_none()));
        if met && key(&p.notation) == key(&r.reply) {
            line.rounds.remove(0);
            return if line.rounds.is_empty() {
                Step::Done
            } else {
                Step::Go
            };
        }
        return Step::Dead(format!("you played {} instead", p.notation));
    }
    if line.now {
        return Step::Go;
    }
    match r.conds.iter_mut().find(|c| c.seat == p.seat && !c.done) {
        Some(c) => match &c.play {
            Some(w) if key(w) != key(&p.notation) => {
                Step::Dead(format!("{} played {}, not {w}", c.name, p.notation))
            }
            _ => {
                c.done = true;
                Step::Go
            }
        },
        None => Step::Dead(format!(
            "{} was played, which the line did not foresee",
            p.notation
        )),
    }
}

/// Whether a line's current round waits only on its author's reply.
fn met(line: &Line) -> bool {
    line.rounds.first().is_some_and(|r| {
        r.conds
            .iter()
            .all(|c| c.done || (line.turns && c.play.is_none()))
    })
}

/// Whether `user` may play on their board now.
fn may_play(game: &dyn ThreadGame, user: &str, now: Timestamp) -> bool {
    game.offered_moves(&Asker::new(user, now))
        .is_ok_and(|m| !m.is_empty())
}

/// Reads the plays since each line last looked, drops the lines they refute (with a note),
/// and plays the replies now due, as their authors, through the game's `/move`: each reply
/// played may advance other lines, so this goes on until nothing more is due. Once the game
/// is over, the lines left are kept for its export only.
pub fn settle(
    book: &mut Book,
    game: &mut dyn ThreadGame,
    thread: &str,
    now: Timestamp,
) -> Vec<Fired> {
    let mut fired = Vec::new();
    drop_unreadable(book, &*game, now);
    for _ in 0..MAX_FIRED {
        if book.lines.is_empty() {
            break;
        }
        if game.finished() {
            let left = std::mem::take(&mut book.lines);
            book.left.extend(left.into_iter().filter(|l| !l.now));
            break;
        }
        let plays = game.conditional().map(|c| c.plays(now)).unwrap_or_default();
        let mut kept = Vec::new();
        let mut may: Vec<(String, bool)> = Vec::new();
        for mut line in std::mem::take(&mut book.lines) {
            let on = on_board(&plays, line.board);
            let touched = on.len() < line.base
                || (line.base > 0 && Some(on[line.base - 1].index) != line.anchor);
            let mut outcome = if touched {
                Step::Dead("a takeback or revert changed the board".into())
            } else {
                Step::Go
            };
            if matches!(outcome, Step::Go) {
                for p in &on[line.base..] {
                    outcome = step(&mut line, p);
                    if !matches!(outcome, Step::Go) {
                        break;
                    }
                }
            }
            mark(&mut line, &plays);
            if matches!(outcome, Step::Go) && line.turns && !met(&line) {
                // The author's turn began before the plays the line waits for.
                let can = match may.iter().find(|(u, _)| *u == line.author) {
                    Some((_, c)) => *c,
                    None => {
                        let c = may_play(game, &line.author, now);
                        may.push((line.author.clone(), c));
                        c
                    }
                };
                if can {
                    outcome = Step::Dead("your turn came without the plays it waits for".into());
                }
            }
            match outcome {
                Step::Go => kept.push(line),
                Step::Done => {}
                Step::Dead(why) => {
                    let text = format!("{} ({})", describe(&line), why);
                    book.note(&line.author, text);
                }
            }
        }
        book.lines = kept;
        let ready = book.lines.iter().position(|l| {
            met(l) && {
                match may.iter().find(|(u, _)| *u == l.author) {
                    Some((_, c)) => *c,
                    None => may_play(game, &l.author, now),
                }
            }
        });
        let Some(i) = ready else { break };
        let line = book.lines[i].clone();
        let reply = line.rounds[0].reply.clone();
        let cmd = Command {
            name: "move".into(),
            positional: Vec::new(),
            options: vec![("notation".into(), reply.clone())],
        };
        let raw = format!("/move {reply} (premove)");
        let caller = Caller {
            user: &line.author,
            roles: Roles::default(),
            thread,
            now,
        };
        match game.act(&caller, &cmd, &raw) {
            Some(mut r) if r.ok == Some(true) => {
                let mut lines = r.text.lines();
                let first = lines.next().unwrap_or_default().to_string();
                let rest: Vec<&str> = lines.collect();
                r.text = std::iter::once(format!("{first} (premove)"))
                    .chain(rest.into_iter().map(str::to_string))
                    .collect::<Vec<_>>()
                    .join("\n");
                r.notify = r.notify.and_then(|n| n.without(&line.author));
                fired.push(Fired {
                    author: line.author.clone(),
                    reply: r,
                });
            }
            other => {
                let why = other.map_or_else(|| "not a move here".to_string(), |r| r.text);
                let why = why.lines().next().unwrap_or_default().to_string();
                let l = book.lines.remove(i);
                book.note(
                    &l.author,
                    format!("{} ({reply} was not played: {why})", describe(&l)),
                );
                fired.push(Fired {
                    author: l.author.clone(),
                    reply: Reply::refused(format!(
                        "your conditional reply {reply} was not played: {why}"
                    )),
                });
            }
        }
    }
    fired
}

/// Lines stored before they were checked when set (a play that does not read in the game's
/// notation, a square off the board): dropped, with a note to their authors.
fn drop_unreadable(book: &mut Book, game: &dyn ThreadGame, now: Timestamp) {
    let mut kept = Vec::new();
    for line in std::mem::take(&mut book.lines) {
        match first_unreadable(game, &line.author, now, &line.rounds) {
            None => kept.push(line),
            Some(why) => {
                let text = format!("{} (dropped: {why})", describe(&line));
                book.note(&line.author, text);
            }
        }
    }
    book.lines = kept;
}

/// The replies played from lines folded into the reply of the action that set them off:
/// each echoed as a post of its own in the thread (`#12 … (premove)`), its author no longer
/// asked to move, and whoever it asks to act pinged with the action's own.
pub fn fold_into(reply: &mut Reply, thread: &str, fired: Vec<Fired>) {
    for f in fired {
        if !f.played() {
            // A new message in the thread pinging its author; their turn ping stays.
            reply.notices.push((thread.to_string(), f.failure_text()));
            continue;
        }
        reply.notify = reply.notify.take().and_then(|n| n.without(&f.author));
        reply.notices.push((thread.to_string(), f.reply.text));
        if let Some(n) = f.reply.notify {
            reply.notify = Some(match reply.notify.take() {
                Some(m) => m.and(n),
                None => n,
            });
        }
    }
}

/// The replies played from lines at a timer (a lock lifted by time, a turn's default play):
/// each a message of its own, its text first, pinging whoever it asks to act.
pub fn as_notices(fired: Vec<Fired>) -> Vec<Notify> {
    fired
        .into_iter()
        .map(|f| {
            if !f.played() {
                return Notify::to([f.author.clone()], f.reply.text);
            }
            let pings = f
                .reply
                .notify
                .unwrap_or_else(|| Notify::to(Vec::<String>::new(), ""));
            pings.headed(f.reply.text)
        })
        .collect()
}

/// The lines left at the end, for the export (after the game is over only).
pub fn export_lines(book: &Book) -> String {
    if book.left.is_empty() {
        return String::new();
    }
    let mut s = String::from("\nConditional moves left unplayed at the end:\n");
    for l in &book.left {
        let board = if l.turns {
            String::new()
        } else {
            format!(" (board {})", l.board + 1)
        };
        s.push_str(&format!("{}{board}: {}\n", l.author, l.text));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_compare_plays_by_their_squares() {
        assert_eq!(key("Nb1-c3"), key("b1-c3"));
        assert_eq!(key("Nb1xc3+"), key("b1c3"));
        assert_eq!(key("CNd4xe2"), key("d4-e2"));
        assert_ne!(key("Nb1-c3"), key("Nb1-a3"));
        assert_eq!(key("P@e6(nutty)"), key("p@e6"));
        assert_ne!(key("P@e6"), key("N@e6"));
        assert_eq!(key("e7-e8=Q"), key("e7e8=q"));
        assert_ne!(key("e7-e8=Q"), key("e7-e8=N"));
        assert_eq!(key("O-O"), key("0-0"));
        assert_ne!(key("0-0"), key("0-0-0"));
        assert_eq!(key("Qj1-j16+"), key("j1-j16"));
        assert_eq!(key("Rc10xc14"), key("c10-c14"));
        assert_eq!(key("pass"), "pass");
    }

    fn kfb_seat() -> PremoveSeat {
        PremoveSeat {
            board: 0,
            seat: 0,
            turns: false,
            before: vec![(3, "d".into())],
            between: vec![(3, "d".into())],
        }
    }

    #[test]
    fn lines_read_as_rounds() {
        let r = read_line(&kfb_seat(), "e7-e5 Ng1-f3 d7-d6 d2-d4").unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[1].reply, "d2-d4");
        assert_eq!(r[1].conds[0].play.as_deref(), Some("d7-d6"));
        assert!(read_line(&kfb_seat(), "e7-e5").is_err());
        assert!(read_line(&kfb_seat(), "e7-e5 *").is_err());
        assert!(read_line(&kfb_seat(), "e7-e5 Ng1-f3 ---").is_err());
        let drop = read_line(&kfb_seat(), "e7-e5 P@e6 (nutty)").unwrap();
        assert_eq!(drop[0].reply, "P@e6(nutty)");
        let turns = PremoveSeat {
            turns: true,
            before: vec![(1, "Red".into()), (2, "Black".into())],
            between: vec![(1, "Red".into()), (2, "Black".into()), (3, "Green".into())],
            ..kfb_seat()
        };
        let r = read_line(&turns, "* e7-e6 Qd1-d2").unwrap();
        assert_eq!(r[0].conds[0].play, None);
        assert!(read_line(&turns, "* e7-e6").is_err());
        assert!(read_line(&turns, &"a1-a2 ".repeat(3 + 4 * 10)).is_err());
    }

    fn played(index: usize, seat: usize, n: &str) -> Played {
        Played {
            index,
            board: 0,
            seat,
            notation: n.into(),
        }
    }

    #[test]
    fn a_line_follows_the_plays_and_dies_on_a_surprise() {
        let mut line = Line {
            author: "a".into(),
            board: 0,
            seat: 0,
            turns: false,
            base: 0,
            anchor: None,
            rounds: read_line(&kfb_seat(), "e7-e5 Ng1-f3 d7-d6 d2-d4").unwrap(),
            text: String::new(),
            now: false,
        };
        assert!(matches!(step(&mut line, &played(1, 3, "e7-e5")), Step::Go));
        assert!(met(&line));
        assert!(matches!(step(&mut line, &played(2, 0, "Ng1-f3")), Step::Go));
        assert!(!met(&line));
        assert!(matches!(
            step(&mut line, &played(3, 3, "c7-c5")),
            Step::Dead(_)
        ));
    }
}
