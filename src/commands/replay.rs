//! `/replay` (issue 44): the game layer's part of a replay. Each game folds its log once and
//! hands every entry, with the game as it stood just after it, to [`Frames`], saying whether
//! the entry changed the board; [`Frames`] keeps the position before the first action shown
//! and one frame per board-changing action in `from:`–`to:`, and makes the job that draws
//! them ([`crate::render::replay`]) away from the executor. The options are read and
//! checked here once for every game.

use super::{parse_command, Asker, Caller, Command, Hub, Roles, ThreadGame};
use crate::games::log::{Entry, Folded, Logged};
use crate::render::replay::{
    render_replay, Replay, ReplayFrame, ReplaySpec, Speed, Still, UPLOAD_LIMIT,
};
use crate::time::Timestamp;

/// `/replay`'s options, read and checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    /// The first action shown (`from:`).
    pub from: Option<u32>,
    /// The last action shown (`to:`).
    pub to: Option<u32>,
    /// One KFB board (`board:`, 1–3).
    pub board: Option<usize>,
    /// How fast.
    pub speed: Speed,
}

/// An action number as typed (`12` or `#12`).
fn action_number(key: &str, text: &str) -> Result<u32, String> {
    match text.trim().trim_start_matches('#').parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "{key}: takes an action number, as replies show it (like 12 or #12); not {text}"
        )),
    }
}

impl ReplayOptions {
    /// The options of a `/replay` command.
    ///
    /// # Errors
    /// An option that does not read, or `from:` after `to:`.
    pub fn of_command(cmd: &Command) -> Result<ReplayOptions, String> {
        let from = cmd
            .opt("from")
            .map(|t| action_number("from", t))
            .transpose()?;
        let to = cmd.opt("to").map(|t| action_number("to", t)).transpose()?;
        if let (Some(f), Some(t)) = (from, to) {
            if f > t {
                return Err(format!("from:#{f} comes after to:#{t}"));
            }
        }
        let board = match cmd.opt("board") {
            None => None,
            Some(b) => match b.trim().parse::<usize>() {
                Ok(n @ 1..=3) => Some(n - 1),
                _ => return Err(format!("board: is 1, 2 or 3; not {b}")),
            },
        };
        let speed = match cmd.opt("speed") {
            None => Speed::default(),
            Some(s) => {
                Speed::parse(s).ok_or_else(|| format!("speed: is slow, normal or fast; not {s}"))?
            }
        };
        Ok(ReplayOptions {
            from,
            to,
            board,
            speed,
        })
    }

    /// For a game of one board: refuses `board:`.
    ///
    /// # Errors
    /// `board:` was given.
    pub fn one_board(&self) -> Result<(), String> {
        match self.board {
            Some(_) => {
                Err("board: is for Kung Fu Bughouse's three boards; this game has one".into())
            }
            None => Ok(()),
        }
    }
}

/// A replay's result, for the reply that posts it.
#[derive(Clone, Debug, PartialEq)]
pub struct Replayed {
    /// The GIF and how it was drawn.
    pub replay: Replay,
    /// The first action shown.
    pub first: u32,
    /// The last action shown.
    pub last: u32,
    /// The first and the last frame's captions, each with its picture's title (`#40 ann
    /// resigns · … | Chex · #40 · Black (ben) wins`; the console shows them).
    pub ends: (String, String),
}

impl Replayed {
    /// The reply's text: `replay of actions #1–#40: 41 frames, 812345 bytes`, and what was
    /// given up to stay under the upload limit.
    pub fn text(&self) -> String {
        let r = &self.replay;
        let mut s = format!(
            "replay of actions #{}–#{}: {} frames, {} bytes",
            self.first,
            self.last,
            r.frames,
            r.gif.len()
        );
        if r.scale < 1.0 {
            s.push_str(&format!(", drawn at {:.0}%", r.scale * 100.0));
        }
        if r.skipped > 0 {
            s.push_str(&format!(
                ", {} frames skipped to stay under Discord's upload limit",
                r.skipped
            ));
        }
        s
    }

    /// The attachment's file name.
    pub fn file_name(&self) -> String {
        format!("replay-{}-{}.gif", self.first, self.last)
    }
}

/// Draws a replay, away from the async executor.
pub type ReplayJob = Box<dyn FnOnce() -> Result<Replayed, String> + Send>;

/// The frames of a replay, collected as a game folds its log (see the module note).
#[derive(Debug)]
pub struct Frames {
    from: u32,
    to: u32,
    /// A replay of one KFB board (`board:`): once there is a board to show, actions on the
    /// others before the first frame leave the start as it was.
    one_board: bool,
    /// The position before the first action shown, and the action it follows.
    start: Option<(Option<u32>, Still)>,
    frames: Vec<(u32, ReplayFrame)>,
    /// The log's last action, and its picture and caption when it made no frame (a
    /// resignation): shown last when the game is over ([`Frames::finish`]).
    last: u32,
    end: Option<ReplayFrame>,
}

impl Frames {
    /// A replay of a game whose last action is `last`, with `opts`.
    ///
    /// # Errors
    /// Nothing played yet, or `from:`/`to:` beyond the last action.
    pub fn new(opts: &ReplayOptions, last: u32) -> Result<Frames, String> {
        if last == 0 {
            return Err("nothing has been played yet: there is nothing to replay".into());
        }
        for n in [opts.from, opts.to].into_iter().flatten() {
            if n > last {
                return Err(format!(
                    "there is no action #{n}; actions run from #1 to #{last}"
                ));
            }
        }
        Ok(Frames {
            from: opts.from.unwrap_or(1),
            to: opts.to.unwrap_or(last),
            one_board: opts.board.is_some(),
            start: None,
            frames: Vec::new(),
            last,
            end: None,
        })
    }

    /// The frames of `game`'s log, folded once ([`Folded::each_state`]): each entry in
    /// effect is [`Frames::step`]ped with whether it `changed` the picture, its `still` and
    /// its `caption`, each given the entry and the game just after it. A caption of a
    /// conditional move keeps its `(premove)` mark; the log's last action, when it changed
    /// nothing drawn (a resignation), is kept for [`Frames::finish`].
    ///
    /// # Errors
    /// As [`Frames::new`], or a log that no longer replays.
    pub fn of<G>(
        game: &G,
        opts: &ReplayOptions,
        mut changed: impl FnMut(&Entry<G::Action>, &G) -> bool,
        mut still: impl FnMut(&Entry<G::Action>, &G) -> Option<Still>,
        mut caption: impl FnMut(&Entry<G::Action>, &G) -> String,
    ) -> Result<Frames, String>
    where
        G: Folded,
        G::Action: Logged,
        G::Error: std::fmt::Display,
    {
        let last = game.log().next_number().saturating_sub(1);
        let mut frames = Frames::new(opts, last)?;
        game.each_state(|e, snap| {
            let mut caption = || {
                let c = caption(e, snap);
                if e.command.trim_end().ends_with("(premove)") {
                    format!("{c} (premove)")
                } else {
                    c
                }
            };
            let changed = changed(e, snap);
            if !changed && e.number == Some(last) {
                frames.end = still(e, snap).map(|still| ReplayFrame {
                    caption: caption(),
                    still,
                });
            }
            frames.step(e.number, changed, || still(e, snap), caption);
        })
        .map_err(|e| e.to_string())?;
        Ok(frames)
    }

    /// One entry of the log in effect, folded: its number, whether it changed the board,
    /// its picture (made only if needed; `None` while there is no board) and its caption.
    pub fn step(
        &mut self,
        number: Option<u32>,
        changed: bool,
        still: impl FnOnce() -> Option<Still>,
        caption: impl FnOnce() -> String,
    ) {
        match number {
            Some(n) if n > self.to => {}
            Some(n) if changed && n >= self.from => {
                if let Some(still) = still() {
                    self.frames.push((
                        n,
                        ReplayFrame {
                            caption: caption(),
                            still,
                        },
                    ));
                }
            }
            // Before the first frame: the start is the game just before it (whatever changed
            // its picture, a draft or a pick of pieces included); on one board, the board
            // as the range begins (the others' actions in the range add nothing to it).
            Some(n) if self.one_board && n >= self.from && self.start.is_some() => {}
            _ if self.frames.is_empty() => {
                if let Some(still) = still() {
                    let after = if changed { number } else { None };
                    let before = self.start.as_ref().and_then(|(a, _)| *a);
                    self.start = Some((after.or(before), still));
                }
            }
            _ => {}
        }
    }

    /// The end of a game that is over (`result`, as its replies say it), when the range
    /// reaches its last action: the last frame's caption says the result, and when that
    /// action changed nothing drawn (a resignation, a concession, `/party end`), its picture
    /// (the game as it ended, as its final picture shows it) is the last frame.
    pub fn finish(&mut self, result: Option<String>) {
        let end = self.end.take();
        let Some(result) = result else { return };
        if self.last < self.from || self.last > self.to {
            return;
        }
        match (self.frames.last_mut(), end) {
            (Some((n, f)), _) if *n == self.last => {
                f.caption = format!("{} · {result}", f.caption);
            }
            (_, Some(mut f)) => {
                f.caption = format!("{} · {result}", f.caption);
                self.frames.push((self.last, f));
            }
            _ => {}
        }
    }

    /// The frames collected (the start left out), each with its action's number, to adjust
    /// their captions.
    pub fn frames_mut(&mut self) -> impl Iterator<Item = (u32, &mut ReplayFrame)> {
        self.frames.iter_mut().map(|(n, f)| (*n, f))
    }

    /// Every picture collected, to adjust them together (Chex puts them on one frame).
    pub fn stills_mut(&mut self) -> impl Iterator<Item = &mut Still> {
        self.start
            .iter_mut()
            .map(|(_, s)| s)
            .chain(self.frames.iter_mut().map(|(_, f)| &mut f.still))
    }

    /// The job that draws them, with `header` (the game and its players) under every
    /// caption.
    ///
    /// # Errors
    /// No action in the range changed the board.
    pub fn job(self, header: String, speed: Speed) -> Result<ReplayJob, String> {
        let (Some(first), Some(last)) = (
            self.frames.first().map(|f| f.0),
            self.frames.last().map(|f| f.0),
        ) else {
            return Err(format!(
                "no action from #{} to #{} changed the board",
                self.from, self.to
            ));
        };
        let mut frames = Vec::with_capacity(self.frames.len() + 1);
        if let Some((after, still)) = self.start {
            let caption = match after {
                Some(n) => format!("before #{first} (after #{n})"),
                None => "the start".to_string(),
            };
            frames.push(ReplayFrame { caption, still });
        }
        frames.extend(self.frames.into_iter().map(|(_, f)| f));
        let caption = |f: Option<&ReplayFrame>| {
            f.map(|f| format!("{} | {}", f.caption, f.still.headline()))
                .unwrap_or_default()
        };
        let ends = (caption(frames.first()), caption(frames.last()));
        let spec = ReplaySpec {
            header,
            frames,
            speed,
            limit: UPLOAD_LIMIT,
        };
        Ok(Box::new(move || {
            let replay = render_replay(&spec).map_err(|e| e.to_string())?;
            Ok(Replayed {
                replay,
                first,
                last,
                ends,
            })
        }))
    }
}

/// The line under every caption: the game and its players (`Chex · ann vs ben`).
pub fn header(title: &str, players: &[String]) -> String {
    let players = if players.len() == 2 {
        players.join(" vs ")
    } else {
        players.join(", ")
    };
    format!("{title} · {players}")
}

/// Where the example games' clocks start (2026-01-01T00:00:00Z).
const EXAMPLE_START: Timestamp = 1_767_225_600;

/// The first lines of the example games ([`example_game`]): who types what, as the console
/// reads it (`org` organises).
const KFB_SETUP: &[(&str, &str)] = &[
    (
        "org",
        "/kfb new team1:@a @b @c team2:@d @e @f seed:1 move_limit:6m",
    ),
    ("f", "/pick order:second color:red army:fide"),
    ("a", "/pick order:first color:red army:fide"),
    ("e", "/pick order:first color:blue army:rookies"),
    ("b", "/pick order:second color:lightgreen army:nutty"),
    ("d", "/pick order:second color:lightgreen army:clobberers"),
    ("c", "/pick order:first color:blue army:forward"),
];
const ULTIMATE_SETUP: &[(&str, &str)] = &[(
    "org",
    "/ultimate new silver:@ann red:@ben black:@cat green:@dan seed:7 move_limit:2d",
)];
const CHEX_SETUP: &[(&str, &str)] = &[("org", "/chex new white:@ann black:@ben seed:42")];
const NOMIC_SETUP: &[(&str, &str)] = &[(
    "org",
    "/nomic new players:@ann @ben @cat referees:@ref order:@ann @ben @cat seed:5",
)];
const PARTY_SETUP: &[(&str, &str)] = &[
    (
        "org",
        "/party new umpire:@uma swingers:@ann @ben @cat seed:7 turn_limit:3d",
    ),
    ("ann", "/party pieces set:RRJPP"),
    ("ben", "/party pieces set:RBCJP"),
    ("cat", "/party pieces set:RRBPP"),
];

/// A game played through the command layer for benchmarks and tests (`kfb`, `ultimate`,
/// `chex`, `nomic` or `party`), set up as the console scripts do, then `plays` moves, each
/// player in turn playing an offered move (a quiet one when there is one, so the game runs
/// long; `/done` when nobody has one), the clock moving on a few minutes each time. Fewer
/// if the game ends first.
///
/// # Errors
/// An unknown game, or a setup line refused.
pub fn example_game(game: &str, plays: usize) -> Result<Box<dyn ThreadGame>, String> {
    let (setup, users): (&[(&str, &str)], &[&str]) = match game {
        "kfb" => (KFB_SETUP, &["a", "b", "c", "d", "e", "f"]),
        "ultimate" => (ULTIMATE_SETUP, &["ann", "ben", "cat", "dan"]),
        "chex" => (CHEX_SETUP, &["ann", "ben"]),
        "nomic" => (NOMIC_SETUP, &["ann", "ben", "cat"]),
        "party" => (PARTY_SETUP, &["ann", "ben", "cat"]),
        other => return Err(format!("no example game {other}")),
    };
    let thread = "example";
    let mut hub = Hub::new();
    let mut now = EXAMPLE_START;
    let run = |hub: &mut Hub, user: &str, line: &str, now: Timestamp| {
        let caller = Caller {
            user,
            roles: Roles {
                organiser: user == "org",
                moderator: false,
            },
            thread,
            now,
        };
        let cmd = parse_command(line).ok_or_else(|| format!("not a command: {line}"))?;
        let reply = hub.handle(&caller, 1, &cmd, line);
        Ok::<bool, String>(reply.ok == Some(true))
    };
    for &(user, line) in setup {
        if !run(&mut hub, user, line, now)? {
            return Err(format!("{user} {line}: refused"));
        }
        now += 60;
    }
    let (mut played, mut draw, mut idle) = (0, 0u64, 0);
    while played < plays && idle < 20 {
        let mut moved = false;
        for &user in users {
            let Some(game) = hub.game(thread) else {
                return Err("the game is gone".into());
            };
            if game.finished() || played >= plays {
                break;
            }
            let offered = game
                .offered_moves(&Asker::new(user, now))
                .unwrap_or_default();
            let quiet: Vec<&String> = offered.iter().filter(|m| !m.contains('x')).collect();
            let pool: Vec<&String> = if quiet.is_empty() {
                offered.iter().collect()
            } else {
                quiet
            };
            if pool.is_empty() {
                continue;
            }
            draw = crate::games::seeded::splitmix(draw);
            let pick = pool[(draw % pool.len() as u64) as usize];
            if run(&mut hub, user, &format!("/move {pick}"), now)? {
                played += 1;
                moved = true;
            }
            now += 90;
        }
        if hub.game(thread).is_some_and(|g| g.finished()) {
            break;
        }
        if !moved {
            for &user in users {
                moved |= run(&mut hub, user, "/done", now)?;
            }
        }
        idle = if moved { 0 } else { idle + 1 };
        now += 400;
    }
    hub.game(thread)
        .map(|g| g.clone_box())
        .ok_or_else(|| "the game is gone".into())
}

/// One replay of the benchmark.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayBench {
    /// What is replayed.
    pub name: &'static str,
    /// The actions in the game.
    pub actions: u32,
    /// The replay drawn.
    pub replayed: Replayed,
    /// Milliseconds to draw it (the palette's pictures and every pass).
    pub ms: f64,
}

/// `arbiter render-bench`'s replays: a 200-action KFB game, a 300-play Party Chess game and
/// a 500-action KFB game ([`example_game`]), each replayed whole at normal speed.
///
/// # Errors
/// A game that cannot be played or drawn.
pub fn bench() -> Result<Vec<ReplayBench>, String> {
    let mut out = Vec::new();
    for (name, game, plays) in [
        ("KFB, 200 actions", "kfb", 200),
        ("Party Chess, 300 plays", "party", 300),
        ("KFB, 500 actions", "kfb", 500),
    ] {
        let g = example_game(game, plays)?;
        let actions = last_number(&*g);
        let job = g.replay(&ReplayOptions::default(), EXAMPLE_START)?;
        let t = std::time::Instant::now();
        let replayed = job()?;
        out.push(ReplayBench {
            name,
            actions,
            replayed,
            ms: t.elapsed().as_secs_f64() * 1e3,
        });
    }
    Ok(out)
}

/// The number of a game's last action.
fn last_number(g: &dyn ThreadGame) -> u32 {
    (0..g.log_len())
        .filter_map(|i| g.row(i)?.ok()?.number)
        .max()
        .unwrap_or(0)
}

/// The benchmark's lines, as `arbiter render-bench` prints them.
pub fn bench_text(lines: &[ReplayBench]) -> String {
    let mut s = format!(
        "{:<26} {:>7} {:>6} {:>9} {:>10} {:>6} {:>7} {:>6} {:>8}\n",
        "replay", "actions", "frames", "ms", "bytes", "scale", "passes", "drawn", "px/frame"
    );
    for l in lines {
        let r = &l.replayed.replay;
        s.push_str(&format!(
            "{:<26} {:>7} {:>6} {:>9.0} {:>10} {:>5.0}% {:>7} {:>6} {:>8}\n",
            l.name,
            l.actions,
            r.frames,
            l.ms,
            r.gif.len(),
            r.scale * 100.0,
            r.passes,
            r.sampled + r.drawn,
            r.encoded / r.frames.saturating_sub(1).max(1) as u64
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(line: &str) -> Result<ReplayOptions, String> {
        let cmd = super::super::parse_command(line).ok_or("no command")?;
        ReplayOptions::of_command(&cmd)
    }

    #[test]
    fn options_read_and_refuse() {
        let o = opts("/replay from:#3 to:9 board:2 speed:Fast").unwrap();
        assert_eq!(
            o,
            ReplayOptions {
                from: Some(3),
                to: Some(9),
                board: Some(1),
                speed: Speed::Fast
            }
        );
        assert!(opts("/replay from:9 to:3").unwrap_err().contains("after"));
        assert!(opts("/replay speed:warp")
            .unwrap_err()
            .contains("slow, normal or fast"));
        assert!(opts("/replay board:4").unwrap_err().contains("1, 2 or 3"));
        assert!(opts("/replay from:x")
            .unwrap_err()
            .contains("action number"));
        assert!(Frames::new(&opts("/replay to:12").unwrap(), 11)
            .unwrap_err()
            .contains("no action #12"));
    }

    #[test]
    fn frames_are_the_start_and_the_changes_in_range() {
        let still = || {
            Some(Still::Chex(Box::new(crate::render::ChexView::of_position(
                &crate::games::chex::Position::start(),
            ))))
        };
        let mut f = Frames::new(&opts("/replay from:3 to:5").unwrap(), 6).unwrap();
        for n in 1..=6 {
            f.step(Some(n), n != 4, still, || format!("#{n}"));
        }
        assert_eq!(f.start.as_ref().map(|s| s.0), Some(Some(2)));
        let shown: Vec<u32> = f.frames.iter().map(|x| x.0).collect();
        assert_eq!(shown, vec![3, 5]);
    }

    #[test]
    fn one_boards_start_is_the_board_as_the_range_begins() {
        // A Chex view stands for the board; its title says after which action it was taken.
        let still = |n: u32| {
            move || {
                let mut v =
                    crate::render::ChexView::of_position(&crate::games::chex::Position::start());
                v.title = format!("after #{n}");
                Some(Still::Chex(Box::new(v)))
            }
        };
        let title = |f: &Frames| match f.start.as_ref().map(|s| &s.1) {
            Some(Still::Chex(v)) => v.title.clone(),
            _ => String::new(),
        };
        // Board 3 from #2: #3 and #4 are on other boards (a capture there puts a piece in a
        // hand on board 3), #5 on board 3.
        let mut f = Frames::new(&opts("/replay board:3 from:2").unwrap(), 6).unwrap();
        for n in 1..=6 {
            f.step(Some(n), n == 5, still(n), || format!("#{n}"));
        }
        assert_eq!(title(&f), "after #1");
        // Without board:, the start is the game just before the first frame.
        let mut f = Frames::new(&opts("/replay from:2").unwrap(), 6).unwrap();
        for n in 1..=6 {
            f.step(Some(n), n == 5, still(n), || format!("#{n}"));
        }
        assert_eq!(title(&f), "after #4");
    }

    #[test]
    #[ignore = "times the replays of `arbiter render-bench` (run with --ignored --nocapture)"]
    fn replay_bench() {
        print!("{}", bench_text(&bench().unwrap()));
    }

    #[test]
    #[ignore = "prints how far the example games get"]
    fn example_games_play() {
        for g in ["kfb", "ultimate", "chex", "nomic", "party"] {
            let game = example_game(g, 40).unwrap();
            println!("{g}: {} actions", last_number(&*game));
            println!("{}", game.status(EXAMPLE_START));
        }
    }
}
