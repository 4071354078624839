//! `/replay` (issue 44): the game layer's part of a replay. Each game folds its log once and
//! hands every entry, with the game as it stood just after it, to [`Frames`], saying whether
//! the entry changed the board; [`Frames`] keeps the position before the first action shown
//! and one frame per board-changing action in `from:`–`to:`, and makes the job that draws
//! them ([`crate::render::animation`]) away from the executor. The options are read and
//! checked here once for every game.

use super::Command;
use std::sync::Arc;

use crate::layer::log::{Entry, Folded, Logged};
use crate::render::animation::{
    render_replay, Replay, ReplayFrame, ReplaySpec, Speed, Still, UPLOAD_LIMIT,
};

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
    start: Option<(Option<u32>, Arc<dyn Still>)>,
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
        mut still: impl FnMut(&Entry<G::Action>, &G) -> Option<Arc<dyn Still>>,
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

    /// [`Frames::of`] for a game of one board (`board:` refused): a frame for each action
    /// `shown` draws, each picture the game's `view` of the entry and the game just after
    /// it.
    ///
    /// # Errors
    /// `board:` given, as [`Frames::of`].
    pub fn one_board<G, V>(
        game: &G,
        opts: &ReplayOptions,
        shown: impl Fn(&G::Action) -> bool,
        view: impl Fn(&Entry<G::Action>, &G) -> V,
        caption: impl FnMut(&Entry<G::Action>, &G) -> String,
    ) -> Result<Frames, String>
    where
        G: Folded,
        G::Action: Logged,
        G::Error: std::fmt::Display,
        V: Still + 'static,
    {
        opts.one_board()?;
        Frames::of(
            game,
            opts,
            |e, _| shown(&e.action),
            |e, snap| Some(Arc::new(view(e, snap)) as Arc<dyn Still>),
            caption,
        )
    }

    /// One entry of the log in effect, folded: its number, whether it changed the board,
    /// its picture (made only if needed; `None` while there is no board) and its caption.
    pub fn step(
        &mut self,
        number: Option<u32>,
        changed: bool,
        still: impl FnOnce() -> Option<Arc<dyn Still>>,
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
    pub fn stills_mut(&mut self) -> impl Iterator<Item = &mut Arc<dyn Still>> {
        self.start
            .iter_mut()
            .map(|(_, s)| s)
            .chain(self.frames.iter_mut().map(|(_, f)| &mut f.still))
    }

    /// The last frame captioned with the `result` once the game is over ([`Frames::finish`]),
    /// then the job ([`Frames::job`]) under `header`: what a game whose frames need nothing
    /// more ends its replay with.
    ///
    /// # Errors
    /// No action in the range changed the board.
    pub fn ended(
        mut self,
        result: Option<String>,
        header: String,
        speed: Speed,
    ) -> Result<ReplayJob, String> {
        self.finish(result);
        self.job(header, speed)
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

/// An entry's caption: its number and what it did (`#12 ann Nb1-c3`).
pub fn numbered<A>(e: &Entry<A>, what: &str) -> String {
    format!("#{} {what}", e.number.unwrap_or(0))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A picture that stands for a board in these tests, known by its title; never drawn.
    #[derive(Debug)]
    struct Mark(String);

    impl Still for Mark {
        fn draw(&self) -> Result<crate::render::canvas::Canvas, crate::render::RenderError> {
            Err(crate::render::RenderError::Message(
                "a test mark is not drawn".into(),
            ))
        }

        fn headline(&self) -> String {
            self.0.clone()
        }

        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
    }

    fn opts(line: &str) -> Result<ReplayOptions, String> {
        let cmd = Command::parse_plain(line).ok_or("no command")?;
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
        let still = || Some(Arc::new(Mark(String::new())) as Arc<dyn Still>);
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
        // A mark stands for the board; its title says after which action it was taken.
        let still = |n: u32| move || Some(Arc::new(Mark(format!("after #{n}"))) as Arc<dyn Still>);
        let title = |f: &Frames| match f.start.as_ref().map(|s| &s.1) {
            Some(s) => s.headline(),
            None => String::new(),
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
}
